#!/usr/bin/env bash
# The fault suite (issue 7): runs the packaged service (target/quarkus-app, built when missing) as in production
# and breaks what it stands on. Every case prints one line `case: PASS|FAIL|SKIP figures`; the exit code is 1 when
# any case failed.
#
#   faults/run.sh                  # the default cases: kill pg-stop disk bitrot overload hostile idempotency
#                                  # bodies citations amplify flood readers
#   faults/run.sh kill disk        # chosen cases, by name or number (1 kill, 2 pg-stop, 3 disk, 4 bitrot, 5 overload,
#                                  # 6 hostile, 7 idempotency, 8 bodies, 9 citations, 10 amplify, 11 flood, 12 readers)
#   FAULTS_HEAVY=1 faults/run.sh   # the heavy versions: 50 kills per backend, case 5 on both backends
#   faults/run.sh cheap            # what CI runs: kill (2 kills per backend) pg-stop disk bitrot overload (burst of
#                                  # 1,000) idempotency bodies citations (6 s of checks) amplify flood (100
#                                  # requests) readers (8 s); hostile runs in ./mvnw verify
#
# Needs: the local PostgreSQL on 127.0.0.1:5432 (user postgres, trust), Java 17+, Node 20, curl, jq; case 2 needs
# PostgreSQL's initdb and pg_ctl (it stops a cluster of its own, never that one); case 3 needs root (it mounts a
# small tmpfs) and strace (installed from Debian when missing). Works under faults/work
# (gitignored), in databases evidence_faults_* (dropped when the suite ends, also on failure and Ctrl-C, unless
# FAULTS_KEEP_DATABASES=1), on ports 18691-18699 and 18701-18710.
#
# Layout: a case is a file faults/cases/NAME.sh defining a function case_NAME (- written _) and an entry in CASES
# below; what cases share is in faults/lib/common.sh, the Node client they drive is faults/lib/client.mjs, and the
# jar is started, awaited and stopped, and databases made, by tools/service.sh (shared with bench/).
#
# No `set -e`: the cases test every status themselves, and a failed check must print a FAIL line and let the next
# case run, not end the suite.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

. faults/lib/common.sh
for case_file in faults/cases/*.sh; do
    # shellcheck source=/dev/null # each case file is checked on its own
    . "$case_file"
done

# ---- main -------------------------------------------------------------------------------------------------------

CASES="1:kill 2:pg-stop 3:disk 4:bitrot 5:overload 6:hostile 7:idempotency 8:bodies 9:citations 10:amplify 11:flood
    12:readers"
DEFAULT="kill pg-stop disk bitrot overload hostile idempotency bodies citations amplify flood readers"
# what CI runs after ./mvnw verify (which runs HostileInputIT already): a few minutes in all
CHEAP="kill pg-stop disk bitrot overload idempotency bodies citations amplify flood readers"

case_name() {
    local c
    for c in $CASES; do
        [ "$1" = "${c%%:*}" ] || [ "$1" = "${c#*:}" ] && { echo "${c#*:}"; return 0; }
    done
    return 1
}

main() {
    local chosen=() name
    for arg in "${@:-}"; do
        [ -z "$arg" ] && continue
        if [ "$arg" = cheap ]; then
            # 2 kills per backend and a burst of 1,000 unless told otherwise
            export FAULTS_KILLS=${FAULTS_KILLS:-2} FAULTS_BURST=${FAULTS_BURST:-1000} FAULTS_FLOOD=${FAULTS_FLOOD:-100}
            export FAULTS_FLOOD_RESTART=${FAULTS_FLOOD_RESTART:-0} FAULTS_CITATION_SECONDS=${FAULTS_CITATION_SECONDS:-6}
            # readers: -Xmx128m only, 8 s of timing, stalled downloads cut after 10 s
            export FAULTS_READERS_CHEAP=${FAULTS_READERS_CHEAP:-1} FAULTS_READERS_SECONDS=${FAULTS_READERS_SECONDS:-8} \
                FAULTS_READERS_HOLD=${FAULTS_READERS_HOLD:-16} FAULTS_READERS_TIMEOUT=${FAULTS_READERS_TIMEOUT:-10s}
            read -r -a chosen <<< "$CHEAP"
            continue
        fi
        name=$(case_name "$arg") || { echo "unknown case $arg; cases: $CASES, or cheap ($CHEAP)" >&2; exit 2; }
        chosen+=("$name")
    done
    [ ${#chosen[@]} = 0 ] && read -r -a chosen <<< "$DEFAULT"
    ensure_jar
    ensure_keys
    for name in "${chosen[@]}"; do
        local t
        t=$(now)
        "case_${name//-/_}"
        note "$name took $(elapsed "$t") s"
    done
    exit "$FAILED"
}

main "$@"
