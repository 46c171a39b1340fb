package org.scrapycluster.crawler.node;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.scrapycluster.embedded.proxy.TcpProxy;

/**
 * A TCP proxy in front of a real Redis that passes every command but a domain's pause: a script call whose only key is
 * a {@code <throttlekey>:throttle_pause} reaches Redis as a command Redis does not know, which Redis answers with an
 * error in its turn among the replies. Hand-outs, filings and leases go through as they are, so a node behind it sees
 * Redis refuse its pauses and nothing else. It reads commands as clients send them: arrays of bulk strings.
 */
final class PauseRefusingRedis implements AutoCloseable {

    private static final String PAUSE_KEY_SUFFIX = ":throttle_pause";
    private static final byte[] REFUSED = command(List.of("PAUSE-REFUSED-BY-TEST".getBytes(StandardCharsets.US_ASCII)));

    private final AtomicInteger refused = new AtomicInteger();
    private final TcpProxy proxy;

    /** @param redisPort the port of the Redis on 127.0.0.1 it stands before */
    PauseRefusingRedis(int redisPort) throws IOException {
        this.proxy = TcpProxy.start("pause-refusing-redis", new InetSocketAddress(InetAddress.getLoopbackAddress(), redisPort),
                this::commands, TcpProxy.COPY);
    }

    /** The port to give clients, on 127.0.0.1. */
    int port() {
        return proxy.port();
    }

    /** How many pauses were refused so far. */
    int refused() {
        return refused.get();
    }

    private void commands(InputStream client, OutputStream redis) throws IOException {
        InputStream in = new BufferedInputStream(client);
        for (List<byte[]> args = read(in); args != null; args = read(in)) {
            if (isPause(args)) {
                refused.incrementAndGet();
                redis.write(REFUSED);
            } else {
                redis.write(command(args));
            }
            redis.flush();
        }
    }

    /** {@code EVALSHA|EVAL <script> 1 <throttlekey>:throttle_pause ...}: the pause script, the only one with that one key. */
    private static boolean isPause(List<byte[]> args) {
        String name = new String(args.getFirst(), StandardCharsets.US_ASCII);
        return (name.equalsIgnoreCase("EVALSHA") || name.equalsIgnoreCase("EVAL")) && args.size() >= 4
                && "1".equals(new String(args.get(2), StandardCharsets.US_ASCII))
                && new String(args.get(3), StandardCharsets.UTF_8).endsWith(PAUSE_KEY_SUFFIX);
    }

    /** The next command's arguments; null at the end of the stream. */
    private static List<byte[]> read(InputStream in) throws IOException {
        String header = line(in);
        if (header == null) {
            return null;
        }
        if (header.charAt(0) != '*') {
            throw new IOException("not a command array: " + header);
        }
        int count = Integer.parseInt(header.substring(1));
        List<byte[]> args = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String length = line(in);
            if (length == null || length.charAt(0) != '$') {
                throw new IOException("not a bulk string: " + length);
            }
            byte[] arg = in.readNBytes(Integer.parseInt(length.substring(1)));
            in.readNBytes(2);
            args.add(arg);
        }
        return args;
    }

    /** A line without its CRLF; null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                return null;
            }
            line.write(b);
        }
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.US_ASCII);
    }

    private static byte[] command(List<byte[]> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] arg : args) {
            out.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(arg);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    @Override
    public void close() throws IOException {
        proxy.close();
    }
}
