package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.domain.Workspace;

import java.net.URI;

/** Where each kind of resource lives, for Location and Link headers. */
final class Links {

    private Links() {
    }

    static URI incident(Workspace workspace, IncidentKey key) {
        return URI.create("/api/v1/workspaces/" + workspace + "/incidents/" + key);
    }

    static URI blob(Digest digest) {
        return URI.create("/api/v1/blobs/" + digest);
    }

    static URI finding(FindingId id) {
        return URI.create("/api/v1/findings/" + id);
    }

    static URI rootCause(Workspace workspace, IncidentKey key) {
        return URI.create(incident(workspace, key) + "/root-cause");
    }

    static URI action(SequenceId id) {
        return URI.create("/api/v1/actions/" + id);
    }

    static URI artifact(ArtifactId id) {
        return URI.create("/api/v1/artifacts/" + id);
    }
}
