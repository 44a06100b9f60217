package dev.evidencestore.http;

import io.netty.util.NetUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Who the client of a request is, for the per-client cap: its direct peer, unless that peer is one of the configured
 * proxies ({@code evidence.http.trusted-proxies}); then the forwarded addresses are read from the right, the hop
 * each proxy appended, and the first address that is not a trusted proxy is the client. Addresses further left
 * were written by the client itself and are never believed. Only IP literals are read, so a header never causes a
 * DNS lookup.
 */
public final class TrustedProxies {

    private final List<Network> networks;

    private TrustedProxies(List<Network> networks) {
        this.networks = networks;
    }

    /** Parses CIDRs ({@code 10.0.0.0/8}) and single addresses; a malformed one fails the start. */
    public static TrustedProxies of(List<String> cidrs) {
        List<Network> parsed = new ArrayList<>();
        for (String cidr : cidrs) {
            parsed.add(Network.parse(cidr.trim()));
        }
        return new TrustedProxies(List.copyOf(parsed));
    }

    /**
     * The client's address: {@code peer} when it is not a trusted proxy, otherwise the right-most forwarded address
     * that is not one. {@code forwarded} are the values of {@code Forwarded} (RFC 7239), preferred when present,
     * {@code xForwardedFor} those of {@code X-Forwarded-For}, each in the order received; either may be empty.
     */
    public String client(String peer, List<String> forwarded, List<String> xForwardedFor) {
        if (networks.isEmpty() || !trusted(peer)) {
            return peer;
        }
        List<String> hops = forwarded.isEmpty() ? xForwardedForHops(xForwardedFor) : forwardedHops(forwarded);
        String client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (NetUtil.createByteArrayFromIpAddressString(hop) == null) {
                // not an address ("unknown", an obfuscated name): the proxy that forwarded it is the client we know
                return client;
            }
            client = hop;
            if (!trusted(hop)) {
                return hop;
            }
        }
        return client;
    }

    boolean trusted(String address) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null) {
            return false;
        }
        for (Network network : networks) {
            if (network.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> xForwardedForHops(List<String> values) {
        List<String> hops = new ArrayList<>();
        for (String value : values) {
            for (String hop : value.split(",")) {
                hops.add(bare(hop.trim()));
            }
        }
        return hops;
    }

    /** The {@code for} parameter of every element, in order; an element without one counts as an unknown hop. */
    private static List<String> forwardedHops(List<String> values) {
        List<String> hops = new ArrayList<>();
        for (String value : values) {
            for (String element : value.split(",")) {
                String hop = "unknown";
                for (String pair : element.split(";")) {
                    int equals = pair.indexOf('=');
                    if (equals > 0 && pair.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("for")) {
                        hop = bare(unquote(pair.substring(equals + 1).trim()));
                    }
                }
                hops.add(hop);
            }
        }
        return hops;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }

    /** The address without a port: {@code 192.0.2.1:4711} and {@code [2001:db8::1]:4711} name their addresses. */
    static String bare(String hop) {
        if (hop.startsWith("[")) {
            int close = hop.indexOf(']');
            return close > 0 ? hop.substring(1, close) : hop;
        }
        int colon = hop.indexOf(':');
        return colon > 0 && colon == hop.lastIndexOf(':') ? hop.substring(0, colon) : hop;
    }

    /** An address prefix: the network's bytes and how many leading bits of an address must match them. */
    private record Network(byte[] prefix, int bits) {

        static Network parse(String cidr) {
            int slash = cidr.indexOf('/');
            String address = slash < 0 ? cidr : cidr.substring(0, slash);
            byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
            if (bytes == null) {
                throw new IllegalArgumentException("evidence.http.trusted-proxies: not an address or CIDR: " + cidr);
            }
            int bits = slash < 0 ? bytes.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
            if (bits < 0 || bits > bytes.length * 8) {
                throw new IllegalArgumentException("evidence.http.trusted-proxies: prefix out of range: " + cidr);
            }
            return new Network(bytes, bits);
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            int whole = bits / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != prefix[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest) & 0xFF;
            return (address[whole] & mask) == (prefix[whole] & mask);
        }
    }
}
