package org.scrapycluster.crawler.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small forward proxy for fetcher tests: absolute-form HTTP requests are forwarded (one per connection),
 * CONNECT opens a tunnel. It records each request line and Proxy-Authorization, and refuses with 407 when
 * credentials are required and missing. Node tests use it through {@code DOWNLOAD_PROXY}.
 */
public final class TestProxy implements AutoCloseable {

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "test-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final String requiredAuthorization;
    private final List<String> requestLines = Collections.synchronizedList(new ArrayList<>());
    private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());

    /** @param requiredAuthorization the Proxy-Authorization value every request must carry, or null for none */
    public TestProxy(String requiredAuthorization) throws IOException {
        this.requiredAuthorization = requiredAuthorization;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        threads.execute(this::acceptLoop);
    }

    public int port() {
        return server.getLocalPort();
    }

    public List<String> requestLines() {
        return List.copyOf(requestLines);
    }

    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                threads.execute(() -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            List<String> head = readHead(in);
            String requestLine = head.getFirst();
            requestLines.add(requestLine);
            String authorization = header(head, "Proxy-Authorization");
            authorizations.add(authorization == null ? "" : authorization);
            if (requiredAuthorization != null && !requiredAuthorization.equals(authorization)) {
                out.write("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                return;
            }
            String[] parts = requestLine.split(" ");
            if (parts[0].equals("CONNECT")) {
                tunnel(client, parts[1], in, out);
            } else {
                forward(parts, head, in, out);
            }
        } catch (IOException e) {
            // the client or the origin went away; nothing to clean up beyond the sockets
        }
    }

    private void tunnel(Socket client, String hostPort, InputStream in, OutputStream out) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        try (Socket origin = new Socket(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)))) {
            out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            threads.execute(() -> pump(in, originOut(origin)));
            pump(origin.getInputStream(), out);
        }
        client.close();
    }

    private void forward(String[] parts, List<String> head, InputStream in, OutputStream out) throws IOException {
        URI target = URI.create(parts[1]);
        try (Socket origin = new Socket(target.getHost(), target.getPort())) {
            StringBuilder request = new StringBuilder(parts[0]).append(' ').append(target.getRawPath());
            if (target.getRawQuery() != null) {
                request.append('?').append(target.getRawQuery());
            }
            request.append(' ').append(parts[2]).append("\r\n");
            for (String line : head.subList(1, head.size())) {
                String lower = line.toLowerCase();
                if (!lower.startsWith("proxy-") && !lower.startsWith("connection:")) {
                    request.append(line).append("\r\n");
                }
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream toOrigin = origin.getOutputStream();
            toOrigin.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            String length = header(head, "Content-Length");
            if (length != null) {
                toOrigin.write(in.readNBytes(Integer.parseInt(length.trim())));
            }
            toOrigin.flush();
            pump(origin.getInputStream(), out);
        }
    }

    private static OutputStream originOut(Socket origin) {
        try {
            return origin.getOutputStream();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void pump(InputStream from, OutputStream to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
                to.write(buffer, 0, n);
                to.flush();
            }
        } catch (IOException e) {
            // one side closed
        }
    }

    private static List<String> readHead(InputStream in) throws IOException {
        List<String> head = RequestHead.read(in);
        if (head == null) {
            throw new IOException("connection closed inside the request head");
        }
        return head;
    }

    private static String header(List<String> head, String name) {
        for (String line : head.subList(1, head.size())) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }
}
