package org.scrapycluster.embedded.origin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** The page the compression routes serve, and the gzip, zlib and raw-deflate encodings of it or of any bytes. */
public final class CompressedPages {

    /** A page of {@value #REPEATS} repeated paragraphs, so it compresses well and its length is known. */
    static final String HTML;
    static final int REPEATS = 200;

    static {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><title>compressed</title></head><body>\n");
        for (int i = 0; i < REPEATS; i++) {
            html.append("<p>paragraph ").append(i).append(" of a page sent compressed</p>\n");
        }
        HTML = html.append("</body></html>\n").toString();
    }

    private CompressedPages() {
    }

    static byte[] gzip() {
        return gzip(HTML.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code plain} gzip-compressed, as one member. */
    public static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /** The page deflated, with the zlib wrapper HTTP's "deflate" means, or raw as some servers send it. */
    static byte[] deflate(boolean raw) {
        return deflate(HTML.getBytes(StandardCharsets.UTF_8), raw);
    }

    /** {@code plain} deflated, with the zlib wrapper, or raw. */
    public static byte[] deflate(byte[] plain, boolean raw) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
        deflater.setInput(plain);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }
}
