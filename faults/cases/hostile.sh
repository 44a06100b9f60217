# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 6: hostile input --------------------------------------------------------------------------------------

# HostileInputIT (src/test/java/dev/evidencestore/faults): jqwik generates hostile path and query parameters,
# headers, body fields and framings over every operation of openapi/openapi.yaml and sends them byte for byte to the
# packaged jar; no 5xx, every error a problem document, no stored row changed by a refused request.
case_hostile() {
    local started log=$WORK/hostile-maven.log summary
    started=$(now)
    EVIDENCE_TEST_DB=${EVIDENCE_TEST_DB:-evidence_test_faults} FAULTS_HOSTILE=1 ./mvnw -q -B verify -Dtest=none \
        -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=HostileInputIT > "$log" 2>&1
    local rc=$?
    summary=$(head -n 1 target/faults/hostile-input.txt 2> /dev/null)
    if [ -z "$summary" ]; then
        result hostile FAIL "HostileInputIT did not run (exit $rc); see $log"
        return
    fi
    result hostile "$([ "$rc" = 0 ] && echo PASS || echo FAIL)" "${summary#hostile: } (details: target/faults/hostile-input.txt); $(elapsed "$started")s"
}
