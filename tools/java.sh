# shellcheck shell=bash
# The JDK the service is built, tested, trained and run with: Java 25, whose AOT cache loads only in the JDK that
# wrote it. Sourced by .ci/run, bench/run.sh and tools/service.sh: keeps JAVA_HOME when it is a JDK 25, else takes the first JDK 25
# under /usr/lib/jvm, and puts its java first on the PATH. Returns 1, saying so, when there is none.
java_use_25() {
    if [ -n "${JAVA_HOME:-}" ] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
        :
    else
        JAVA_HOME=""
        local jdk
        for jdk in /usr/lib/jvm/temurin-25-jdk-* /usr/lib/jvm/java-25-openjdk-*; do
            [ -x "$jdk/bin/java" ] && { JAVA_HOME=$jdk; break; }
        done
        [ -n "$JAVA_HOME" ] || { echo "no JDK 25 under /usr/lib/jvm; set JAVA_HOME to one" >&2; return 1; }
    fi
    export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
}
