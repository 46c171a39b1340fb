package org.scrapycluster.embedded.origin;

import java.io.ByteArrayOutputStream;
import java.util.zip.Deflater;

/**
 * A decompression bomb, made on the fly: a body of {@code mib} MiB of zeros (10 GiB unless given), sent
 * gzip-compressed (or zlib-deflated with {@code encoding=deflate}) — about 1 KiB on the wire per MiB
 * inflated, so 10 GiB travel as about 10 MB. The compressed stream is one flushed deflate segment of 1 MiB
 * of zeros repeated, streamed in pieces while the client reads, chunked (a Content-Length would give the
 * game away to a client that checks it).
 * {@code /bomb?mib=10240&encoding=gzip}.
 */
public final class CompressionBomb implements Route {

    public static final String PATH = "/bomb";

    /** Bytes one segment inflates to. */
    public static final int SEGMENT_INFLATED = 1 << 20;

    private static final byte[] SEGMENT = segment();
    private static final byte[] FINAL_BLOCK = {3, 0};
    private static final byte[] GZIP_HEADER = {0x1F, (byte) 0x8B, 8, 0, 0, 0, 0, 0, 0, (byte) 0xFF};
    private static final byte[] ZLIB_HEADER = {0x78, (byte) 0xDA};
    private static final int SEGMENTS_PER_PIECE = 64;

    /** The path and query of a bomb of {@code mib} MiB inflated, in {@code encoding} (gzip or deflate). */
    public static String path(long mib, String encoding) {
        return PATH + "?mib=" + mib + "&encoding=" + encoding;
    }

    @Override
    public void serve(Exchange exchange) {
        long segments = exchange.longParam("mib", 10_240);
        boolean gzip = !"deflate".equals(exchange.param("encoding"));
        byte[] header = gzip ? GZIP_HEADER : ZLIB_HEADER;
        // the gzip trailer (CRC-32 and length, left zero: the bomb is never meant to be read to its end) or zlib's Adler-32
        int trailer = gzip ? 8 : 4;
        exchange.startBody(200, -1, "Content-Type", "text/html", "Content-Encoding", gzip ? "gzip" : "deflate");
        exchange.writeBody(header, () -> sendSegments(exchange, segments, trailer));
    }

    private static void sendSegments(Exchange exchange, long remaining, int trailer) {
        if (!exchange.isOpen()) {
            return;
        }
        if (remaining == 0) {
            byte[] end = new byte[FINAL_BLOCK.length + trailer];
            System.arraycopy(FINAL_BLOCK, 0, end, 0, FINAL_BLOCK.length);
            exchange.writeBody(end, exchange::endBody);
            return;
        }
        int count = (int) Math.min(SEGMENTS_PER_PIECE, remaining);
        byte[] piece = new byte[count * SEGMENT.length];
        for (int i = 0; i < count; i++) {
            System.arraycopy(SEGMENT, 0, piece, i * SEGMENT.length, SEGMENT.length);
        }
        exchange.writeBody(piece, () -> sendSegments(exchange, remaining - count, trailer));
    }

    /** 1 MiB of zeros as raw deflate blocks ending on a byte boundary (a sync flush), so copies can follow each other. */
    private static byte[] segment() {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(new byte[SEGMENT_INFLATED]);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int written;
        do {
            written = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
            out.write(buffer, 0, written);
        } while (written == buffer.length || !deflater.needsInput());
        deflater.end();
        return out.toByteArray();
    }
}
