package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.List;

/**
 * Evidence an adapter fetched, with what it knows of how: the bytes (hashed, in a temporary file), the capture
 * details, and the defaults the person's options override.
 */
record Captured(HashedFile file, ObjectNode capture, String source, String name, String mediaType, String description) {

    /** Binds it with the person's options over the adapter's defaults, and prints it as push does. */
    int push(Session session, ArtifactOptions options, Invocation invocation) throws IOException {
        try (HashedFile bytes = file) {
            ArtifactDraft draft = new ArtifactDraft(options.name != null ? options.name : name,
                    options.mediaType != null ? options.mediaType : mediaType, source, ArtifactDraft.SNAPSHOT,
                    ArtifactDraft.capturedAt(options.capturedAt),
                    options.description != null ? options.description : description,
                    Provenance.capture(capture, options, invocation));
            JsonNode bound = new EvidencePush(session.client, session.workspace(), options.incident).push(bytes, draft);
            return new PushReport(invocation, options.json)
                    .print(List.of(new PushCommand.Outcome(bytes.label(), bound, null)));
        }
    }
}
