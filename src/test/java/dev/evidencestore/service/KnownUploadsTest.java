package dev.evidencestore.service;

import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.Evidence;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Uploads kept in memory for the bindings that follow them: only what a committed transaction recorded, and only for
 * the uploader who recorded it, so that the cache never shows a blob the visibility query would hide.
 */
@QuarkusTest
class KnownUploadsTest {

    private static final Attribution ALICE = Attribution.of("alice", "https://issuer.example alice");
    private static final Attribution ALICE_RENAMED = Attribution.of("Alice L.", "https://issuer.example alice");
    private static final Attribution BOB = Attribution.of("bob", "https://issuer.example bob");
    private static final Attribution NAMED_ONLY = new Attribution("carol", null);

    @Inject
    KnownUploads known;

    @Test
    void anUploadIsKnownToItsUploaderOnceItsTransactionCommitted() {
        Digest digest = Digest.parse(Evidence.digestOf(Evidence.uniqueBytes(64)));
        QuarkusTransaction.requiringNew().run(() -> {
            known.recorded(ALICE, digest, 64);
            assertEquals(OptionalLong.empty(), known.size(ALICE, digest), "not before its transaction committed");
        });
        assertEquals(OptionalLong.of(64), known.size(ALICE, digest));
        assertEquals(OptionalLong.of(64), known.size(ALICE_RENAMED, digest), "by principal, whatever the name");
        assertEquals(OptionalLong.empty(), known.size(BOB, digest), "never to another uploader");
        assertEquals(OptionalLong.empty(), known.size(new Attribution("alice", null), digest),
                "a caller without a principal is not the principal of the same name");
    }

    @Test
    void anUploaderWithoutAPrincipalIsKnownByName() {
        Digest digest = Digest.parse(Evidence.digestOf(Evidence.uniqueBytes(32)));
        QuarkusTransaction.requiringNew().run(() -> known.recorded(NAMED_ONLY, digest, 32));
        assertEquals(OptionalLong.of(32), known.size(NAMED_ONLY, digest));
        assertEquals(OptionalLong.empty(), known.size(Attribution.of("carol", "https://issuer.example carol"), digest));
    }

    @Test
    void anUploadWhoseTransactionRolledBackIsNeverKnown() {
        Digest digest = Digest.parse(Evidence.digestOf(Evidence.uniqueBytes(16)));
        QuarkusTransaction.begin();
        try {
            known.recorded(ALICE, digest, 16);
        } finally {
            QuarkusTransaction.rollback();
        }
        assertEquals(OptionalLong.empty(), known.size(ALICE, digest));
    }
}
