package dev.evidencestore.http;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whose address a request is counted under: forwarded headers count only from configured proxies. */
class TrustedProxiesTest {

    private static final TrustedProxies NONE = TrustedProxies.of(List.of());
    private static final TrustedProxies INGRESS = TrustedProxies.of(List.of("10.0.0.0/8", "192.0.2.7", "2001:db8::/32"));

    @Test
    void withoutTrustedProxiesTheHeadersAreIgnored() {
        assertEquals("198.51.100.9", NONE.client("198.51.100.9", List.of("for=203.0.113.1"), List.of("203.0.113.1")));
    }

    @Test
    void aPeerThatIsNoTrustedProxyIsTheClientWhateverItForwards() {
        assertEquals("198.51.100.9", INGRESS.client("198.51.100.9", List.of(), List.of("203.0.113.1")));
    }

    /** The right-most hop not a proxy is the client: what the client wrote further left is never believed. */
    @Test
    void aTrustedProxyNamesTheClientByTheHopItAppended() {
        assertEquals("203.0.113.1", INGRESS.client("10.1.2.3", List.of(), List.of("203.0.113.1")));
        assertEquals("203.0.113.1", INGRESS.client("10.1.2.3", List.of(), List.of("1.1.1.1, 203.0.113.1")));
        assertEquals("203.0.113.1", INGRESS.client("10.1.2.3", List.of(), List.of("1.1.1.1", "203.0.113.1, 10.9.9.9")));
        assertEquals("1.1.1.1", INGRESS.client("10.1.2.3", List.of(), List.of("1.1.1.1, 10.9.9.9")));
        // every hop a proxy: the first of them is as near the client as anyone can tell
        assertEquals("10.8.8.8", INGRESS.client("10.1.2.3", List.of(), List.of("10.8.8.8, 10.9.9.9")));
    }

    @Test
    void forwardedIsPreferredAndReadWithQuotesAndPorts() {
        assertEquals("2001:db9::1", INGRESS.client("192.0.2.7",
                List.of("for=1.1.1.1, for=\"[2001:db9::1]:4711\";proto=https"), List.of("203.0.113.1")));
        assertEquals("203.0.113.5", INGRESS.client("192.0.2.7", List.of("For=203.0.113.5:80"), List.of()));
    }

    /** A hop that is not an address stops the walk at the proxy that forwarded it; no DNS lookup is made. */
    @Test
    void aHopThatIsNoAddressLeavesTheProxyAsTheClient() {
        assertEquals("10.1.2.3", INGRESS.client("10.1.2.3", List.of("for=unknown"), List.of()));
        assertEquals("10.1.2.3", INGRESS.client("10.1.2.3", List.of(), List.of("evil.example")));
        assertEquals("10.1.2.3", INGRESS.client("10.1.2.3", List.of(), List.of()));
    }

    @Test
    void prefixesMatchBitByBit() {
        TrustedProxies odd = TrustedProxies.of(List.of("172.16.0.0/12", "2001:db8:8000::/33"));
        assertTrue(odd.trusted("172.31.255.255"));
        assertFalse(odd.trusted("172.32.0.0"));
        assertTrue(odd.trusted("2001:db8:8000::1"));
        assertFalse(odd.trusted("2001:db8:7fff::1"));
        assertFalse(odd.trusted("not-an-address"));
        assertTrue(INGRESS.trusted("192.0.2.7"));
        assertFalse(INGRESS.trusted("192.0.2.8"));
    }

    @Test
    void aMalformedSettingFailsTheStart() {
        assertThrows(IllegalArgumentException.class, () -> TrustedProxies.of(List.of("10.0.0.0/33")));
        assertThrows(IllegalArgumentException.class, () -> TrustedProxies.of(List.of("proxy.internal")));
    }
}
