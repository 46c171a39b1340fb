package org.scrapycluster.embedded.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 in front of one server: each client connection gets a connection of its own to the server,
 * and two pumps carry the bytes, one each way, until either side goes away. What a pump does with the bytes is the
 * test's: pass them on ({@link #COPY}), or read them as the protocol frames them and change what it must.
 */
public final class TcpProxy implements AutoCloseable {

    /** Carries one direction of one connection, from {@code in} to {@code out}, until {@code in} ends. */
    @FunctionalInterface
    public interface Pump {
        void carry(InputStream in, OutputStream out) throws IOException;
    }

    /** Passes every byte on as it comes. */
    public static final Pump COPY = InputStream::transferTo;

    private final String name;
    private final InetSocketAddress upstream;
    private final Pump requests;
    private final Pump replies;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private TcpProxy(String name, InetSocketAddress upstream, Pump requests, Pump replies) throws IOException {
        this.name = name;
        this.upstream = upstream;
        this.requests = requests;
        this.replies = replies;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /**
     * Starts a proxy in front of {@code upstream}.
     *
     * @param name     its threads' name
     * @param requests what goes from a client to the server
     * @param replies  what goes from the server back to the client
     */
    public static TcpProxy start(String name, InetSocketAddress upstream, Pump requests, Pump replies) throws IOException {
        TcpProxy proxy = new TcpProxy(name, upstream, requests, replies);
        Thread.ofVirtual().name(name + "-accept").start(proxy::accept);
        return proxy;
    }

    /** The port to give clients, on 127.0.0.1. */
    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket server;
                try {
                    server = new Socket(upstream.getAddress(), upstream.getPort());
                } catch (IOException upstreamDown) {
                    closeQuietly(client); // the client sees the server refuse it, as without the proxy; the next may find it up
                    continue;
                }
                sockets.add(client);
                sockets.add(server);
                Thread.ofVirtual().name(name + "-requests").start(() -> pump(requests, client, server));
                Thread.ofVirtual().name(name + "-replies").start(() -> pump(replies, server, client));
            }
        } catch (IOException closed) {
            // the proxy is closed
        }
    }

    private static void pump(Pump pump, Socket from, Socket to) {
        try (InputStream in = from.getInputStream()) {
            pump.carry(in, to.getOutputStream());
        } catch (IOException closed) {
            // either side went away
        } finally {
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(TcpProxy::closeQuietly);
    }
}
