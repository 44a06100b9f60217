package dev.evidencestore.http;

import dev.evidencestore.support.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;

/**
 * Behind a trusted proxy (here the loopback the tests connect from), the per-client cap counts the address the
 * proxy forwarded, not the proxy's: one client at its cap is refused, another behind the same proxy is not, and
 * what a client wrote left of the proxy's hop is not believed.
 */
@QuarkusTest
@TestProfile(TrustedProxyAdmissionTest.BehindAProxy.class)
class TrustedProxyAdmissionTest {

    static final String HELD = "203.0.113.7";

    public static class BehindAProxy implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.http.trusted-proxies", "127.0.0.0/8,::1/128",
                    "evidence.http.admission.per-client", "2");
        }
    }

    @Inject
    AdmissionControl admission;

    @Test
    void theForwardedClientIsCountedNotTheProxy() {
        admission.enterClient(HELD);
        admission.enterClient(HELD);
        try {
            String detail = "this client address has 2 requests in progress already; nothing was done";
            for (String forwarded : new String[] {HELD, "198.51.100.1, " + HELD}) {
                problem(invalid().header("X-Forwarded-For", forwarded).get(AdmissionControlTest.INCIDENTS, "demo")
                        .then(), 503, "service-busy").header("Retry-After", "1").body("detail", equalTo(detail));
            }
            problem(invalid().header("Forwarded", "for=\"" + HELD + ":4711\"").get(AdmissionControlTest.INCIDENTS,
                    "demo").then(), 503, "service-busy").body("detail", equalTo(detail));
            // another client behind the proxy, one that puts the held address further left, and the proxy itself
            Api.api().header("X-Forwarded-For", "203.0.113.8").get(AdmissionControlTest.INCIDENTS, "demo").then()
                    .statusCode(200);
            Api.api().header("X-Forwarded-For", HELD + ", 203.0.113.8").get(AdmissionControlTest.INCIDENTS, "demo")
                    .then().statusCode(200);
            Api.api().get(AdmissionControlTest.INCIDENTS, "demo").then().statusCode(200);
        } finally {
            admission.leaveClient(HELD);
            admission.leaveClient(HELD);
        }
        Api.api().header("X-Forwarded-For", HELD).get(AdmissionControlTest.INCIDENTS, "demo").then().statusCode(200);
    }
}
