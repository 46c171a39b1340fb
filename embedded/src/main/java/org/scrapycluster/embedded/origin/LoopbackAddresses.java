package org.scrapycluster.embedded.origin;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The loopback address of each test domain: domain 0 is 127.0.0.2, domain 1 is 127.0.0.3, and so on through
 * 127.0.1.x and beyond. Linux routes all of 127.0.0.0/8 to the loopback interface, so every address is
 * reachable without configuration, and each is its own registered domain ({@code 127.0.0.5.}).
 */
public final class LoopbackAddresses {

    /** How many domains fit below 127.255.255.255. */
    public static final int MAX_DOMAINS = (1 << 24) - 3;

    private LoopbackAddresses() {
    }

    /** The dotted address of domain {@code index}. */
    public static String of(int index) {
        if (index < 0 || index >= MAX_DOMAINS) {
            throw new IllegalArgumentException("domain index out of range: " + index);
        }
        int host = index + 2;
        return "127." + (host >> 16 & 0xFF) + "." + (host >> 8 & 0xFF) + "." + (host & 0xFF);
    }

    /** The address of domain {@code index}. */
    public static InetAddress address(int index) {
        of(index);
        int host = index + 2;
        try {
            return InetAddress.getByAddress(new byte[] {127, (byte) (host >> 16), (byte) (host >> 8), (byte) host});
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    /** The domain index of {@code address}, or -1 when it is not a test domain's address. */
    public static int indexOf(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != 4 || bytes[0] != 127) {
            return -1;
        }
        int host = (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | bytes[3] & 0xFF;
        return host >= 2 ? host - 2 : -1;
    }
}
