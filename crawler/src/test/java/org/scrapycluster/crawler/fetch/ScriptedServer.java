package org.scrapycluster.crawler.fetch;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server on a loopback address that answers each connection with a script writing exact bytes, for
 * fetcher tests with misbehaving servers. It records every request head it reads, and counts the
 * connections accepted and those still open.
 */
final class ScriptedServer implements AutoCloseable {

    /** What the server does on one connection. */
    @FunctionalInterface
    interface Script {
        void serve(Exchange exchange) throws IOException;
    }

    /** One accepted connection, as its script sees it. */
    final class Exchange {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        /** The connection's number, from 0 in order of acceptance. */
        final int connection;

        private Exchange(Socket socket, int connection) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream());
            this.out = socket.getOutputStream();
            this.connection = connection;
        }

        /** The next request head (request line first, then the header lines), recorded; null at the end of input. */
        List<String> readHead() throws IOException {
            List<String> lines = RequestHead.read(in);
            if (lines != null) {
                heads.add(List.copyOf(lines));
            }
            return lines;
        }

        /** Writes {@code text} as ISO-8859-1 bytes and flushes. */
        void write(String text) throws IOException {
            write(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** Waits until the client closes the connection. */
        void awaitClose() throws IOException {
            while (in.read() >= 0) {
                // discards whatever else arrives
            }
        }
    }

    private final ServerSocket server;
    private final Script script;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "scripted-server");
        thread.setDaemon(true);
        return thread;
    });
    private final List<List<String>> heads = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();

    ScriptedServer(String address, Script script) throws IOException {
        this.script = script;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
        threads.execute(this::acceptLoop);
    }

    /** The URL of {@code path} on this server. */
    String url(String path) {
        return "http://" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort() + path;
    }

    /** Every request head read so far, in order. */
    List<List<String>> heads() {
        return List.copyOf(heads);
    }

    int acceptedConnections() {
        return accepted.get();
    }

    /** Connections accepted whose script has not yet ended. */
    int openConnections() {
        return open.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                int number = accepted.getAndIncrement();
                open.incrementAndGet();
                threads.execute(() -> serve(client, number));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client, int number) {
        try (client) {
            script.serve(new Exchange(client, number));
        } catch (IOException e) {
            // the client went away
        } finally {
            open.decrementAndGet();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }
}
