package org.scrapycluster.crawler.fetch;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

import com.google.common.net.InetAddresses;

/**
 * Host names that are IP addresses, read as browsers read them (the URL standard's host parser): IPv6 in
 * brackets, with an IPv4 address as its last 32 bits in any of them ({@code 64:ff9b::127.0.0.1}) and without a zone
 * ({@code %eth0}), and IPv4 in one to four parts, each decimal, octal ({@code 0177}) or hexadecimal
 * ({@code 0x7f}), the last part filling the remaining bytes — so {@code 127.1}, {@code 2130706433} and
 * {@code 0x7f000001} are all 127.0.0.1. A host that does not end in a number is a name to resolve.
 */
final class IpLiterals {

    private static final BigInteger BYTE_MAX = BigInteger.valueOf(255);

    private IpLiterals() {
    }

    /**
     * The address {@code host} spells (as {@code UrlParts.hostname()} gives it: no brackets, lower case),
     * or null when it is a name.
     *
     * @throws IllegalArgumentException when {@code host} is numeric but no valid address ({@code 256.1.1.1})
     */
    static InetAddress parse(String host) {
        if (host.indexOf(':') >= 0) {
            // Guava reads every form of RFC 4291, and never looks a name up; a zone would make it look up an interface
            if (host.indexOf('%') >= 0) {
                throw new IllegalArgumentException("not a valid IPv6 address: " + host);
            }
            byte[] bytes;
            try {
                bytes = InetAddresses.forString(host).getAddress();
            } catch (IllegalArgumentException notAnAddress) {
                throw new IllegalArgumentException("not a valid IPv6 address: " + host, notAnAddress);
            }
            return address(host, bytes);
        }
        String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String[] parts = name.split("\\.", -1);
        if (!isNumber(parts[parts.length - 1])) {
            return null;
        }
        if (parts.length > 4) {
            throw new IllegalArgumentException("an IPv4 address has at most four parts: " + host);
        }
        BigInteger value = BigInteger.ZERO;
        for (int i = 0; i < parts.length; i++) {
            BigInteger part = number(parts[i], host);
            boolean last = i == parts.length - 1;
            BigInteger limit = last ? BigInteger.ONE.shiftLeft(8 * (5 - parts.length)).subtract(BigInteger.ONE) : BYTE_MAX;
            if (part.compareTo(limit) > 0) {
                throw new IllegalArgumentException("not a valid IPv4 address (a part is too large): " + host);
            }
            value = last ? value.add(part) : value.add(part.shiftLeft(8 * (3 - i)));
        }
        long ipv4 = value.longValue();
        return address(host, new byte[] {(byte) (ipv4 >>> 24), (byte) (ipv4 >>> 16), (byte) (ipv4 >>> 8), (byte) ipv4});
    }

    /** Whether {@code part} reads as a number: decimal digits, or 0x and hexadecimal digits. */
    private static boolean isNumber(String part) {
        if (part.isEmpty()) {
            return false;
        }
        if (part.startsWith("0x")) {
            return part.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
        }
        return part.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static BigInteger number(String part, String host) {
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x")) {
            radix = 16;
            digits = part.substring(2);
        } else if (part.length() > 1 && part.startsWith("0")) {
            radix = 8;
            digits = part.substring(1);
        }
        if (digits.isEmpty() && radix == 16) {
            return BigInteger.ZERO;
        }
        int base = radix;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, base) >= 0)) {
            throw new IllegalArgumentException("not a valid IPv4 address: " + host);
        }
        return new BigInteger(digits, radix);
    }

    private static InetAddress address(String host, byte[] bytes) {
        try {
            return InetAddress.getByAddress(host, bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not a valid IP address: " + host, e);
        }
    }
}
