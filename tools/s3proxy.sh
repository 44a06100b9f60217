# shellcheck shell=bash
# S3Proxy for the scripts that measure the s3 backend against it (bench/run.sh, bench/profile.sh): a JVM of its own
# (dev.evidencestore.support.S3ProxyProcess, objects as files under a directory) listening on https only, with a
# throwaway certificate for 127.0.0.1, as S3 is reached over https. Over plain http the AWS SDK must sign every
# payload, one more SHA-256 pass on the service's side and one on S3Proxy's that neither pays against S3, while curl,
# the peer's own PUT, sends its payload unsigned. A library: source it, then call the functions.
#
#   . tools/s3proxy.sh
#   s3proxy_tls "$WORK/s3proxy-tls"                     # key store, certificate (PEM, for curl), trust store (JVMs)
#   s3proxy_start "$WORK/s3proxy.log" 18483 "$WORK/s3proxy" || exit 1   # sets S3PROXY_PID and S3PROXY_URL
#   curl --cacert "$S3PROXY_TLS/cert.pem" ... "$S3PROXY_URL/evidence/key"
#   java "${S3PROXY_TRUST[@]}" "${S3PROXY_LOGGING[@]}" ... # a JVM client that trusts it, on its classpath
#   s3proxy_service_arguments 18483                     # the s3 backend's settings for it, the trust store too:
#   service_start ... "${S3PROXY_SERVICE_ARGUMENTS[@]}"
#   s3proxy_stop
#
# Needs target/test-classes and target/s3proxy.classpath (./mvnw test-compile) and keytool (the JDK's).

S3PROXY_TLS=""
S3PROXY_PID=""
S3PROXY_URL=""
S3PROXY_TRUST=()
S3PROXY_SERVICE_ARGUMENTS=()
# JVMs on target/s3proxy.classpath have JBoss LogManager: named at launch, it is not set up late over the JDK's one,
# which logged an ERROR line
S3PROXY_LOGGING=(-Djava.util.logging.manager=org.jboss.logmanager.LogManager)
# protects only the throwaway key of a local run
S3PROXY_STORE_PASSWORD=evidence-local-s3proxy

# s3proxy_tls DIR: a new EC key and certificate for 127.0.0.1 (valid a week) in DIR/keystore.p12, the certificate as
# DIR/cert.pem and alone in DIR/truststore.p12, replacing any there. Sets S3PROXY_TLS and S3PROXY_TRUST. Make them
# once, before S3Proxy and the services that trust it start.
s3proxy_tls() {
    S3PROXY_TLS=$(mkdir -p "$1" && cd "$1" && pwd) || return 1
    local store=(-storetype PKCS12 -storepass "$S3PROXY_STORE_PASSWORD")
    rm -f "$S3PROXY_TLS/keystore.p12" "$S3PROXY_TLS/truststore.p12"
    keytool -genkeypair -alias s3proxy -keyalg EC -groupname secp256r1 -validity 7 -dname CN=127.0.0.1 \
        -ext SAN=ip:127.0.0.1 -keystore "$S3PROXY_TLS/keystore.p12" "${store[@]}" > /dev/null 2>&1 || return 1
    keytool -exportcert -rfc -alias s3proxy -file "$S3PROXY_TLS/cert.pem" \
        -keystore "$S3PROXY_TLS/keystore.p12" "${store[@]}" > /dev/null 2>&1 || return 1
    keytool -importcert -noprompt -alias s3proxy -file "$S3PROXY_TLS/cert.pem" \
        -keystore "$S3PROXY_TLS/truststore.p12" "${store[@]}" > /dev/null 2>&1 || return 1
    S3PROXY_TRUST=(-Djavax.net.ssl.trustStore="$S3PROXY_TLS/truststore.p12" -Djavax.net.ssl.trustStoreType=PKCS12
        -Djavax.net.ssl.trustStorePassword="$S3PROXY_STORE_PASSWORD")
}

# s3proxy_start LOG PORT DIR: S3Proxy on https://127.0.0.1:PORT, objects under DIR (emptied first), bucket evidence
# and the test keys; 0 once it printed its "S3Proxy listening on" line, 1 if it exited or took 120 s. Needs
# s3proxy_tls first. Sets S3PROXY_PID and S3PROXY_URL.
s3proxy_start() {
    local log=$1 port=$2 dir=$3 t0
    [ -n "$S3PROXY_TLS" ] || { echo "s3proxy_start: call s3proxy_tls first" >&2; return 1; }
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    : > "$log"
    java -Ds3proxy.keystore="$S3PROXY_TLS/keystore.p12" -Ds3proxy.keystore-password="$S3PROXY_STORE_PASSWORD" \
        "${S3PROXY_LOGGING[@]}" \
        -cp "target/test-classes:$(cat target/s3proxy.classpath)" dev.evidencestore.support.S3ProxyProcess \
        "$port" "$dir" >> "$log" 2>&1 &
    S3PROXY_PID=$!
    t0=$(date +%s)
    until grep -q '^S3Proxy listening on ' "$log"; do
        kill -0 "$S3PROXY_PID" 2> /dev/null || { tail -n 30 "$log" >&2; return 1; }
        [ $(($(date +%s) - t0)) -lt 120 ] || { echo "S3Proxy did not start within 120 s" >&2; return 1; }
        sleep 0.1
    done
    S3PROXY_URL=https://127.0.0.1:$port
}

# s3proxy_service_arguments PORT: sets S3PROXY_SERVICE_ARGUMENTS, the service's -D arguments for the s3 backend on
# the S3Proxy of that port, with the trust store of its certificate, and S3Proxy 4's refusal of a PutObject with
# If-None-Match over an existing key declared, as for AWS S3. Needs s3proxy_tls first.
s3proxy_service_arguments() {
    [ -n "$S3PROXY_TLS" ] || { echo "s3proxy_service_arguments: call s3proxy_tls first" >&2; return 1; }
    S3PROXY_SERVICE_ARGUMENTS=(-Devidence.storage.s3.bucket=evidence
        -Devidence.storage.s3.endpoint="https://127.0.0.1:$1" -Devidence.storage.s3.region=us-east-1
        -Devidence.storage.s3.path-style=true -Devidence.storage.s3.access-key-id=evidence-test
        -Devidence.storage.s3.secret-access-key=evidence-test-secret "${S3PROXY_TRUST[@]}"
        -Devidence.storage.s3.conditional-writes-honoured=true)
}

# s3proxy_stop: stops the S3Proxy s3proxy_start started, if it runs, and waits for it to exit
s3proxy_stop() {
    [ -n "$S3PROXY_PID" ] || return 0
    kill "$S3PROXY_PID" 2> /dev/null || true
    wait "$S3PROXY_PID" 2> /dev/null || true
    S3PROXY_PID=""
}
