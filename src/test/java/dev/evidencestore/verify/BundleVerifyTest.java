package dev.evidencestore.verify;

import dev.evidencestore.support.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import static dev.evidencestore.support.Api.anonymous;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The evidence bundle of the demo incident, checked offline: by {@code verify bundle} with the service's public key
 * alone, and by the script its VERIFY.md prints. Any byte changed in any file, a checkpoint re-signed by no one, or
 * another key makes it fail, naming the file.
 */
@QuarkusTest
class BundleVerifyTest {

    private static final String WS = Profiles.DEMO_WORKSPACE;
    private static final Path DEV_PUBLIC_KEY = Profiles.DEV_AUDIT_PUBLIC_KEY;

    @TempDir
    Path dir;

    private Path bundle;
    private Map<String, byte[]> files;
    private String output;

    @BeforeEach
    void download() throws IOException {
        bundle = dir.resolve("evidence.zip");
        Files.write(bundle, anonymous().get("/api/v1/workspaces/{ws}/incidents/INC-1423/evidence-bundle", WS)
                .then().statusCode(200).extract().asByteArray());
        files = unzip(bundle);
        Files.copy(DEV_PUBLIC_KEY, dir.resolve("audit-public.pem"));
    }

    @Test
    void theDemoBundleCarriesItsProofAndVerifies() throws IOException {
        long statements = files.keySet().stream().filter(name -> name.startsWith("statements/")).count();
        assertEquals(6, statements, "five findings and the root cause, each accepted once: " + files.keySet());
        for (String name : files.keySet()) {
            if (name.startsWith("statements/")) {
                String leaf = name.substring("statements/".length(), name.length() - ".dsse.json".length());
                assertTrue(files.containsKey("log/entries/" + leaf + ".json"), name);
                assertTrue(files.containsKey("log/proofs/" + leaf + ".json"), name);
            }
        }
        assertTrue(files.keySet().containsAll(List.of("manifest.json", "postmortem.md", "checkpoint/checkpoint.txt",
                "keys/audit-public.pem", "keys/audit-key-id.txt", "VERIFY.md", "SHA256SUMS")),
                files.keySet().toString());
        assertEquals(Files.readString(DEV_PUBLIC_KEY).strip(),
                new String(files.get("keys/audit-public.pem"), StandardCharsets.UTF_8).strip());

        assertEquals(0, verify(bundle, dir.resolve("audit-public.pem")), output);
        assertFalse(output.contains("FAIL") || output.contains("WARN"), output);
        assertEquals(files.size() - 1, output.lines().filter(line -> line.contains("as listed in SHA256SUMS")).count(),
                output);
        assertEquals(6, output.lines().filter(line -> line.contains("included in the checkpoint's tree")).count(),
                output);
        assertTrue(output.contains("PASS checkpoint/checkpoint.txt: signed by the given key"), output);
    }

    @Test
    void theLauncherAndTheScriptOfVerifyMdAgree() throws Exception {
        Process launcher = new ProcessBuilder("bash", "tools/verify/verify", "bundle", bundle.toString(), "--key",
                DEV_PUBLIC_KEY.toString()).redirectErrorStream(true).start();
        String printed = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, launcher.waitFor(), printed);

        Path unzipped = Files.createDirectories(dir.resolve("unzipped"));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.createDirectories(unzipped.resolve(file.getKey()).getParent());
            Files.write(unzipped.resolve(file.getKey()), file.getValue());
        }
        Files.copy(DEV_PUBLIC_KEY, unzipped.resolve("audit-public.pem"));
        String instructions = new String(files.get("VERIFY.md"), StandardCharsets.UTF_8);
        String script = instructions.substring(instructions.indexOf("```sh\n") + 6, instructions.indexOf("```\n",
                instructions.indexOf("```sh\n") + 6));
        assertEquals("every check passed", lastLine(run(unzipped, script)));

        // a hash of the proof changed, not just any byte: the script reads the hashes, not the JSON around them
        byte[] changedProof = changedHash(files.get("log/proofs/" + firstLeaf() + ".json"));
        Files.write(unzipped.resolve("log/proofs/" + firstLeaf() + ".json"), changedProof);
        Files.writeString(unzipped.resolve("SHA256SUMS"), sums(withFile("log/proofs/" + firstLeaf() + ".json",
                changedProof)));
        assertFalse(run(unzipped, script).endsWith("every check passed"), "a changed proof fails the script");
    }

    @Test
    void oneByteChangedInAnyFileFailsNamingIt() throws IOException {
        for (String name : files.keySet()) {
            Path changed = rezip(withFile(name, flip(files.get(name))));
            assertEquals(1, verify(changed, dir.resolve("audit-public.pem")), name + "\n" + output);
            assertTrue(output.lines().anyMatch(line -> line.startsWith("FAIL") && line.contains(name)),
                    name + "\n" + output);
        }
    }

    /** SHA256SUMS proves nothing against its maker: a checkpoint or statement changed with its line still fails. */
    @Test
    void aChangedCheckpointOrStatementFailsEvenWithSumsToMatch() throws IOException {
        String checkpoint = "checkpoint/checkpoint.txt";
        String note = new String(files.get(checkpoint), StandardCharsets.UTF_8);
        String lines = note.substring(0, note.indexOf("\n\n"));
        String root = lines.substring(lines.lastIndexOf('\n') + 1);
        String otherRoot = (root.charAt(0) == 'A' ? "B" : "A") + root.substring(1);
        Map<String, byte[]> altered = withFile(checkpoint, note.replace(root, otherRoot)
                .getBytes(StandardCharsets.UTF_8));
        altered.put("SHA256SUMS", sums(altered).getBytes(StandardCharsets.UTF_8));
        assertEquals(1, verify(rezip(altered), dir.resolve("audit-public.pem")), output);
        assertTrue(output.contains("FAIL " + checkpoint + ": no valid signature of a given key"), output);

        String statement = "statements/" + firstLeaf() + ".dsse.json";
        DsseEnvelope envelope = DsseEnvelope.parse(new String(files.get(statement), StandardCharsets.UTF_8));
        String payload = new String(envelope.payload(), StandardCharsets.UTF_8).replace("\"accepted\"",
                "\"rejected\"");
        altered = withFile(statement, new DsseEnvelope(envelope.payloadType(),
                payload.getBytes(StandardCharsets.UTF_8), envelope.signatures()).toJson()
                .getBytes(StandardCharsets.UTF_8));
        altered.put("SHA256SUMS", sums(altered).getBytes(StandardCharsets.UTF_8));
        assertEquals(1, verify(rezip(altered), dir.resolve("audit-public.pem")), output);
        assertTrue(output.contains("FAIL " + statement + ": no valid signature of a given key"), output);
    }

    @Test
    void anotherKeyFailsAndTheBundledKeyIsNotTrusted() throws Exception {
        Path other = dir.resolve("other.pem");
        Files.writeString(other, Ed25519Keys.publicPem(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic()));
        assertEquals(1, verify(bundle, other), output);
        assertTrue(output.contains("FAIL checkpoint/checkpoint.txt"), output);
        assertTrue(output.contains("WARN keys/audit-public.pem: is not a given key"), output);
        assertTrue(output.lines().filter(line -> line.startsWith("FAIL statements/")).count() == 6, output);
    }

    /** After a rotation a verifier is given the retired key too; a key it is given but that signed nothing is harmless. */
    @Test
    void severalKeysMayBeGivenAndAnyOfThemVouches() throws Exception {
        Path other = dir.resolve("retired.pem");
        Files.writeString(other, Ed25519Keys.publicPem(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Verify.run(List.of("bundle", bundle.toString(), "--key", other.toString(), "--key",
                dir.resolve("audit-public.pem").toString()), new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        output = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, output);
        assertTrue(output.lines().noneMatch(line -> line.startsWith("WARN") || line.startsWith("FAIL")), output);
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, Verify.run(List.of("bundle", bundle.toString()), System.out, System.err));
        assertEquals(2, Verify.run(List.of("bundle", "--key", "x.pem"), System.out, System.err));
        assertEquals(2, Verify.run(List.of("bundle", dir.resolve("missing.zip").toString(), "--key",
                DEV_PUBLIC_KEY.toString()), System.out, System.err));
    }

    private int verify(Path zip, Path key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Verify.run(List.of("bundle", zip.toString(), "--key", key.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        output = out.toString(StandardCharsets.UTF_8);
        return status;
    }

    private String firstLeaf() {
        String name = files.keySet().stream().filter(file -> file.startsWith("statements/")).findFirst().orElseThrow();
        return name.substring("statements/".length(), name.length() - ".dsse.json".length());
    }

    private Map<String, byte[]> withFile(String name, byte[] bytes) {
        Map<String, byte[]> copy = new LinkedHashMap<>(files);
        copy.put(name, bytes);
        return copy;
    }

    /** The proof with the first character of its first hash replaced by another base64 character. */
    private static byte[] changedHash(byte[] proof) {
        String json = new String(proof, StandardCharsets.UTF_8);
        int first = json.indexOf("\"hashes\":[\"") + "\"hashes\":[\"".length();
        assertTrue(first > "\"hashes\":[\"".length() - 1 && json.charAt(first) != '"', "the proof has a hash: " + json);
        char replacement = json.charAt(first) == 'A' ? 'B' : 'A';
        return (json.substring(0, first) + replacement + json.substring(first + 1)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] flip(byte[] bytes) {
        byte[] flipped = bytes.clone();
        flipped[flipped.length / 2] ^= 0x01;
        return flipped;
    }

    /** SHA256SUMS as whoever changed the files would write it again. */
    private static String sums(Map<String, byte[]> files) {
        StringBuilder sums = new StringBuilder();
        files.forEach((name, bytes) -> {
            if (!name.equals("SHA256SUMS")) {
                sums.append(DigestUtils.sha256Hex(bytes)).append("  ").append(name).append('\n');
            }
        });
        return sums.toString();
    }

    private Path rezip(Map<String, byte[]> content) throws IOException {
        Path zip = Files.createTempFile(dir, "changed", ".zip");
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream writer = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> file : content.entrySet()) {
                writer.putNextEntry(new ZipEntry(file.getKey()));
                writer.write(file.getValue());
                writer.closeEntry();
            }
        }
        return zip;
    }

    private static Map<String, byte[]> unzip(Path zip) throws IOException {
        Map<String, byte[]> content = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(zip); ZipInputStream reader = new ZipInputStream(in)) {
            for (ZipEntry entry = reader.getNextEntry(); entry != null; entry = reader.getNextEntry()) {
                content.put(entry.getName(), reader.readAllBytes());
            }
        }
        return content;
    }

    private static String run(Path directory, String script) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", script).directory(directory.toFile())
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        process.waitFor();
        return out;
    }

    private static String lastLine(String text) {
        return text.substring(text.lastIndexOf('\n') + 1);
    }
}
