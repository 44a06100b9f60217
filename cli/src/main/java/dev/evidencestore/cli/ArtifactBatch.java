package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Several artifacts in one request, {@code POST …/incidents/{key}/artifact-batches} with an
 * {@code application/x-tar} body: first {@code batch.json} (an array of bind requests, each with {@code path}, the
 * entry holding its bytes), then each artifact's bytes under {@code artifacts/{name}}, streamed from disk through a
 * pipe. The service answers one result per item, with the status it would have had alone. The archive is written
 * twice, once to hash it for its {@code Content-Digest} (by which the service recognises a retry under the same
 * {@code Idempotency-Key}) and once to send it, so its entries carry a fixed time. Used only when the service's
 * contract ({@code /q/openapi}) lists the operation, and abandoned for single pushes on a 404 or 405.
 */
final class ArtifactBatch {

    static final String OPERATION = "/incidents/{key}/artifact-batches";
    static final String MANIFEST = "batch.json";
    /** Every entry's time: the archive is written twice and must be the same bytes both times. */
    private static final FileTime ARCHIVED_AT = FileTime.fromMillis(0);

    record Item(HashedFile file, ArtifactDraft draft) {
        String entryName() {
            return "artifacts/" + draft.name();
        }
    }

    private ArtifactBatch() {
    }

    /** Whether the service's contract has the batch operation; any failure to read it means no. */
    static boolean offered(ServiceClient client) {
        try {
            return client.send(Call.get("q/openapi").anonymous()).body().contains(OPERATION);
        } catch (CommandFailure e) {
            return false;
        }
    }

    /**
     * What became of each item, in order: {@code id}, {@code digest} and {@code status} (201, or 200 when it was bound
     * already), or {@code status} and {@code problem}; empty when the service turns out not to offer batches after all.
     */
    static Optional<List<JsonNode>> send(ServiceClient client, String incidentPath, List<Item> items) {
        String manifest = manifest(items);
        long size = items.stream().mapToLong(item -> item.file().size()).sum();
        try {
            JsonNode answer = Json.read(client.send(Call.post(incidentPath + "/artifact-batches")
                    .idempotent(IdempotencyKey.fresh())
                    .header("Content-Digest", contentDigest(manifest, items))
                    .body("application/x-tar", () -> HttpRequest.BodyPublishers.ofInputStream(
                            () -> tarStream(manifest, items)))
                    .timeout(EvidencePush.uploadTimeout(size))).body());
            Map<String, JsonNode> byPath = new HashMap<>();
            answer.path("results").forEach(result -> byPath.putIfAbsent(result.path("path").asText(), result));
            List<JsonNode> results = new ArrayList<>();
            for (Item item : items) {
                results.add(byPath.getOrDefault(item.entryName(), Json.object()));
            }
            return Optional.of(results);
        } catch (ServiceRefusal refusal) {
            if (refusal.problem().status() == 404 || refusal.problem().status() == 405) {
                return Optional.empty();
            }
            throw refusal;
        }
    }

    static String manifest(List<Item> items) {
        ArrayNode artifacts = Json.MAPPER.createArrayNode();
        for (Item item : items) {
            ObjectNode artifact = (ObjectNode) Json.read(item.draft().json(item.file().digest()));
            artifact.put("path", item.entryName());
            artifacts.add(artifact);
        }
        return Json.write(artifacts);
    }

    /** RFC 9530 {@code Content-Digest} of the archive, written once into SHA-256 alone. */
    private static String contentDigest(String manifest, List<Item> items) {
        MessageDigest sha256 = sha256();
        try (OutputStream sink = new DigestOutputStream(OutputStream.nullOutputStream(), sha256)) {
            write(sink, manifest, items);
        } catch (IOException e) {
            throw new CommandFailure(ExitCodes.USAGE, "cannot read the files to push: " + e.getMessage());
        }
        return "sha-256=:" + Base64.getEncoder().encodeToString(sha256.digest()) + ":";
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The tar, written by a thread of its own into a pipe the request reads: nothing is held in memory. */
    private static InputStream tarStream(String manifest, List<Item> items) {
        PipedInputStream in = new PipedInputStream(64 * 1024);
        PipedOutputStream out;
        try {
            out = new PipedOutputStream(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread writer = new Thread(() -> {
            try (OutputStream pipe = out) {
                write(pipe, manifest, items);
            } catch (IOException e) {
                // the request was cut: its reader has gone, and the attempt fails on its side
            }
        }, "artifact-batch-writer");
        writer.setDaemon(true);
        writer.start();
        return in;
    }

    static void write(OutputStream target, String manifest, List<Item> items) throws IOException {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(target);
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        byte[] manifestBytes = manifest.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry first = new TarArchiveEntry(MANIFEST);
        first.setModTime(ARCHIVED_AT);
        first.setSize(manifestBytes.length);
        tar.putArchiveEntry(first);
        tar.write(manifestBytes);
        tar.closeArchiveEntry();
        for (Item item : items) {
            TarArchiveEntry entry = new TarArchiveEntry(item.entryName());
            entry.setModTime(ARCHIVED_AT);
            entry.setSize(item.file().size());
            tar.putArchiveEntry(entry);
            Files.copy(item.file().path(), tar);
            tar.closeArchiveEntry();
        }
        tar.finish();
    }
}
