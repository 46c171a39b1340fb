package org.scrapycluster.common.net;

import java.util.OptionalInt;

/**
 * TCP port numbers: the range every address in settings, requests and URLs is checked against, in one place.
 * A client connects to a port from 1 to {@value #MAX}; a listener binds one from 0 (any free one) to {@value #MAX}.
 */
public final class Port {

    /** The largest TCP port. */
    public static final int MAX = 65_535;

    private static final int MAX_DIGITS = 5;

    private Port() {
    }

    /** Whether a client can connect to {@code port}: 1 to {@value #MAX}. */
    public static boolean isConnectable(int port) {
        return port >= 1 && port <= MAX;
    }

    /** Whether a listener can bind {@code port}: 0 (any free one) to {@value #MAX}. */
    public static boolean isListenable(int port) {
        return port >= 0 && port <= MAX;
    }

    /**
     * The port that {@code digits} spells, 0 to {@value #MAX}, or empty when it is not one to five ASCII digits of
     * such a number (a sign, a space or a non-ASCII digit, which {@link Integer#parseInt} takes, is not a port).
     */
    public static OptionalInt parse(CharSequence digits) {
        int length = digits.length();
        if (length == 0 || length > MAX_DIGITS) {
            return OptionalInt.empty();
        }
        int port = 0;
        for (int i = 0; i < length; i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalInt.empty();
            }
            port = port * 10 + (c - '0');
        }
        return port <= MAX ? OptionalInt.of(port) : OptionalInt.empty();
    }
}
