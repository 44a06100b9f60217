package dev.evidencestore.render;

/**
 * The bundle's {@code VERIFY.md}: how to check everything in it with openssl, sha256sum and a few lines of shell,
 * trusting nothing in the bundle but what the log's public key signed. The leaf bytes are shipped so nobody has to
 * canonicalise JSON again; every JSON file is RFC 8785 canonical, so plain {@code grep} reads it reliably. The
 * script is run by the tests exactly as printed here.
 */
final class VerifyInstructions {

    private static final String TEXT = """
            # Verifying this evidence bundle

            Everything here can be checked offline, with `openssl` (1.1.1 or later), `sha256sum`, `base64` and a
            POSIX shell. Trust nothing in the bundle itself: the one thing to get elsewhere is the public key of the
            audit log `{{ORIGIN}}`, from someone you trust (a pinned copy, `GET /api/v1/audit/keys` of the service
            you know). Save it as `audit-public.pem` next to this file. The bundle carries the key it was signed with
            in `keys/audit-public.pem` (C2SP key ID `{{KEY_ID}}`, in `keys/audit-key-id.txt`) only so that you can
            compare: `cmp audit-public.pem keys/audit-public.pem`.

            What is checked, step by step:

            1. `SHA256SUMS` lists every other file with its SHA-256: `sha256sum -c SHA256SUMS`.
            2. `manifest.json` names every artifact with its digest; each `artifacts/{name}` hashes to it. (The
               postmortem's last line is the manifest's own digest: `sha256sum manifest.json`.)
            3. Every review statement, `statements/{leaf}.dsse.json`, is a DSSE envelope: its signature is Ed25519
               over the PAE `DSSEv1 <length of type> <type> <length of payload> <payload>`, checked with
               `openssl pkeyutl -verify -rawin`. Its payload is an in-toto statement whose subjects must be artifacts
               of the manifest at their digests, and whose `predicate.log.leafIndex` names the audit entry of the
               review, shipped as `log/entries/{leaf}.json`.
            4. `checkpoint/checkpoint.txt` is a C2SP signed note: the signed text is everything before the blank
               line; the signature is the last 64 bytes of the base64 after `— {{ORIGIN}} `.
            5. Each `log/entries/{leaf}.json` is the exact leaf of the log; `log/proofs/{leaf}.json` is its RFC 9162
               inclusion proof in the tree the checkpoint signs: hashing the leaf (`SHA-256(0x00 || bytes)`) up the
               proof (`SHA-256(0x01 || left || right)`) must give the checkpoint's root.

            The same checks, as a script to run in the unzipped bundle (it stops at the first failure):

            ```sh
            set -eu
            sha256sum -c --quiet SHA256SUMS
            grep -o '{"digest":"sha256:[0-9a-f]*","id":"[^"]*"' manifest.json |
              while IFS='"' read -r _ _ _ digest _ _ _ id; do
                echo "${digest#sha256:}  artifacts/${id##*:}" | sha256sum -c --quiet -
              done
            type='application/vnd.in-toto+json'
            for envelope in statements/*.dsse.json; do
              [ -e "$envelope" ] || continue
              sed 's/.*"payload":"\\([^"]*\\)".*/\\1/' "$envelope" | base64 -d > payload.json
              sed 's/.*"sig":"\\([^"]*\\)".*/\\1/' "$envelope" | base64 -d > sig.bin
              { printf 'DSSEv1 %d %s %d ' "${#type}" "$type" "$(wc -c < payload.json)"; cat payload.json; } > pae.bin
              openssl pkeyutl -verify -pubin -inkey audit-public.pem -rawin -in pae.bin -sigfile sig.bin > /dev/null
              grep -o '{"digest":{"sha256":"[0-9a-f]*"},"name":"[^"]*"}' payload.json |
                while IFS='"' read -r _ _ _ _ _ hex _ _ _ name _; do
                  grep -q "{\\"digest\\":\\"sha256:$hex\\",\\"id\\":\\"$name\\"" manifest.json
                done
              leaf=$(grep -o '"leafIndex":[0-9]*' payload.json | cut -d: -f2)
              [ "$(basename "$envelope" .dsse.json)" = "$leaf" ] && [ -f "log/entries/$leaf.json" ]
              echo "statement $envelope: signed, subjects in the manifest, leaf $leaf"
            done
            sed '/^$/,$d' checkpoint/checkpoint.txt > body
            grep '^— {{ORIGIN}} ' checkpoint/checkpoint.txt | head -n 1 | awk '{print $NF}' | base64 -d | tail -c 64 > signature
            openssl pkeyutl -verify -pubin -inkey audit-public.pem -rawin -in body -sigfile signature > /dev/null
            size=$(sed -n 2p checkpoint/checkpoint.txt)
            root=$(sed -n 3p checkpoint/checkpoint.txt)
            echo "checkpoint: signed, $size entries, root $root"
            sha() { openssl dgst -sha256 -binary; }
            for entry in log/entries/*.json; do
              [ -e "$entry" ] || continue
              index=$(basename "$entry" .json)
              proof="log/proofs/$index.json"
              grep -q "\\"index\\":$index,\\"size\\":$size}" "$proof"
              { printf '\\0'; cat "$entry"; } | sha > r.bin
              fn=$index
              sn=$((size - 1))
              for hash in $(grep -o '"[A-Za-z0-9+/]\\{43\\}="' "$proof" | tr -d '"'); do
                [ "$sn" -ne 0 ]
                echo "$hash" | base64 -d > p.bin
                if [ $((fn % 2)) -eq 1 ] || [ "$fn" -eq "$sn" ]; then
                  { printf '\\1'; cat p.bin r.bin; } | sha > n.bin
                  while [ $((fn % 2)) -eq 0 ] && [ "$fn" -ne 0 ]; do fn=$((fn / 2)); sn=$((sn / 2)); done
                else
                  { printf '\\1'; cat r.bin p.bin; } | sha > n.bin
                fi
                mv n.bin r.bin
                fn=$((fn / 2))
                sn=$((sn / 2))
              done
              [ "$sn" -eq 0 ] && [ "$(base64 < r.bin)" = "$root" ]
              echo "leaf $index: included in the checkpoint's tree"
            done
            echo "every check passed"
            ```

            Or with the JDK-only verifier of the Evidence Store repository, which prints one line per check:
            `tools/verify/verify bundle evidence.zip --key audit-public.pem`.
            """;

    private VerifyInstructions() {
    }

    static String render(String origin, String keyId) {
        return TEXT.replace("{{ORIGIN}}", origin).replace("{{KEY_ID}}", keyId);
    }
}
