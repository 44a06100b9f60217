package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * Two writes make an artifact: the bytes under their declared digest, then the binding of a name to them. Each has
 * its own {@code Idempotency-Key}, drawn once and sent with every retry, so that cut connections and timeouts at
 * either step leave one blob, one artifact and one executed write per key.
 */
final class EvidencePush {

    private final ServiceClient client;
    private final String incidentPath;

    EvidencePush(ServiceClient client, String workspace, String incident) {
        this.client = client;
        this.incidentPath = "api/v1/workspaces/" + workspace + "/incidents/" + incident;
    }

    JsonNode push(HashedFile file, ArtifactDraft draft) {
        upload(file);
        return bind(file.digest(), draft);
    }

    void upload(HashedFile file) {
        client.send(Call.put("api/v1/blobs/" + file.digest()).idempotent(IdempotencyKey.fresh())
                .header("Content-Digest", file.contentDigest())
                .body(MediaTypes.OCTETS, () -> fileBody(file))
                .timeout(uploadTimeout(file.size())));
    }

    JsonNode bind(String digest, ArtifactDraft draft) {
        return Json.read(client.send(Call.post(incidentPath + "/artifacts").idempotent(IdempotencyKey.fresh())
                .json(draft.json(digest))).body());
    }

    String incidentPath() {
        return incidentPath;
    }

    /** Long enough for a slow link, short enough that a stalled upload is retried: 2 min plus 1 s per MiB. */
    static Duration uploadTimeout(long size) {
        return Duration.ofMinutes(2).plusSeconds(size / (1024 * 1024));
    }

    private static HttpRequest.BodyPublisher fileBody(HashedFile file) {
        try {
            return HttpRequest.BodyPublishers.ofFile(file.path());
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException(e);
        }
    }
}
