package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.util.Arrays;

import io.netty.util.NetUtil;

/**
 * A block of IP addresses in CIDR notation ({@code 10.0.0.0/8}, {@code fd00::/8}), or one address
 * ({@code 10.1.2.3}, a block of one). Immutable.
 */
public final class NetworkRange {

    private final byte[] base;
    private final int prefix;

    private NetworkRange(byte[] base, int prefix) {
        this.base = base;
        this.prefix = prefix;
    }

    /**
     * The block {@code text} names: an IPv4 or IPv6 address, optionally followed by {@code /prefix-length}.
     *
     * @throws IllegalArgumentException when {@code text} is not of that form, saying why
     */
    public static NetworkRange parse(String text) {
        String value = text.strip();
        int slash = value.indexOf('/');
        String address = slash < 0 ? value : value.substring(0, slash);
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null) {
            throw new IllegalArgumentException("not an IP address or CIDR block: '" + text + "'");
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(value.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("the prefix length of '" + text + "' must be from 0 to " + bits);
            }
        }
        return new NetworkRange(bytes, prefix);
    }

    /** Whether {@code address} lies in this block (an IPv4 block never holds an IPv6 address, nor the reverse). */
    public boolean contains(InetAddress address) {
        return contains(address.getAddress());
    }

    boolean contains(byte[] address) {
        if (address.length != base.length) {
            return false;
        }
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) {
            if (address[i] != base[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xFF << (8 - rest) & 0xFF;
        return (address[whole] & mask) == (base[whole] & mask);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NetworkRange range && range.prefix == prefix && Arrays.equals(range.base, base);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(base) + prefix;
    }

    @Override
    public String toString() {
        return NetUtil.bytesToIpAddress(base) + "/" + prefix;
    }
}
