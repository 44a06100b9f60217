package dev.evidencestore.http;

import dev.evidencestore.support.Damage;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A download cut short because its bytes turned out damaged at their end gives back what it held: its admission slot
 * and its principal's. None did before {@link RequestEnd}: Quarkus REST closes the connection of a response it cannot
 * finish after setting its own close handler on the response, and the slots stayed taken until the service restarted
 * (every such download over HTTP/1.1; now and then over HTTP/2).
 */
@QuarkusTest
class CutShortDownloadTest {

    private static final int DOWNLOADS = 3;
    private static final String ALICE = Tokens.ISSUER + " alice";

    @Inject
    AdmissionControl admission;

    @Inject
    PrincipalCap principals;

    @Test
    void everyCutShortDownloadGivesBackItsSlots() throws Exception {
        for (int i = 0; i < DOWNLOADS; i++) {
            byte[] bytes = Evidence.uniqueBytes(600_000);
            Fixtures.Cited cited = Fixtures.cited("cut-short-" + i, "github-deployment", bytes);
            Damage.flipChunkByte(cited.digest(), 99);
            Damage.assertCutShort("/api/v1/artifacts/" + cited.artifactId() + "/content");
        }
        // the last connection's close reaches the event loop a moment after the client saw it
        for (int waited = 0; busy() && waited < 250; waited++) {
            Thread.sleep(20);
        }
        assertEquals(0, admission.inProgress(RequestKind.DOWNLOAD), "download slots still taken");
        assertEquals(0, principals.inProgress(ALICE), "alice's slots still taken");
    }

    private boolean busy() {
        return admission.inProgress(RequestKind.DOWNLOAD) > 0 || principals.inProgress(ALICE) > 0;
    }
}
