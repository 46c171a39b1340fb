package org.scrapycluster.crawler.fetch;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which resolved addresses the fetcher may connect to. The check runs on the address a host name resolved
 * to, just before connecting, so a name that resolves (or re-resolves, DNS rebinding) to 127.0.0.1 is refused
 * like the literal address.
 */
public enum AddressPolicy {
    /** Any address (tests, private deployments). */
    ANY,
    /**
     * Public addresses only: no loopback, unspecified, private (10/8, 172.16/12, 192.168/16, fc00::/7),
     * link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10), benchmark (198.18/15), multicast or
     * {@code 0.0.0.0/8}, including IPv4 addresses mapped into IPv6.
     */
    PUBLIC_ONLY;

    public boolean allows(InetAddress address) {
        return this == ANY || !isInternal(address);
    }

    static boolean isInternal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            return isInternalIpv4(bytes, 0);
        }
        if (address instanceof Inet6Address) {
            boolean uniqueLocal = (bytes[0] & 0xFE) == 0xFC;
            boolean embedsIpv4 = isZero(bytes, 0, 10) && (bytes[10] == (byte) 0xFF && bytes[11] == (byte) 0xFF
                    || bytes[10] == 0 && bytes[11] == 0);
            return uniqueLocal || embedsIpv4 && isInternalIpv4(bytes, 12);
        }
        return false;
    }

    private static boolean isInternalIpv4(byte[] bytes, int at) {
        int a = bytes[at] & 0xFF;
        int b = bytes[at + 1] & 0xFF;
        return a == 0 || a == 10 || a == 127 || a == 169 && b == 254 || a == 172 && b >= 16 && b <= 31
                || a == 192 && b == 168 || a == 100 && b >= 64 && b <= 127 || a == 198 && (b == 18 || b == 19)
                || a >= 224;
    }

    private static boolean isZero(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
