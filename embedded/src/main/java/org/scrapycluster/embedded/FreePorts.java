package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Finds TCP ports nobody listens on, for servers that must be told their port before they bind. */
public final class FreePorts {

    private FreePorts() {
    }

    /** A port free on 127.0.0.1 at the time of the call; the caller binds it soon and retries on a race. */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free TCP port on 127.0.0.1", e);
        }
    }

    /** True when something accepts connections on 127.0.0.1:{@code port}. */
    public static boolean inUse(int port) {
        return inUse(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    /**
     * True when {@code address} cannot be bound to listen: something listens there, or on the wildcard address at its port
     * (or, for the wildcard address, on any address at its port).
     */
    public static boolean inUse(InetSocketAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
