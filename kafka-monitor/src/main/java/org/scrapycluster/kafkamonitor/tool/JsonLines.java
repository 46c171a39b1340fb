package org.scrapycluster.kafkamonitor.tool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of JSON lines input, as bytes without the spaces, tabs and carriage return around them. Kept as bytes,
 * not decoded, so that a line which is not UTF-8 is one line its JSON parser refuses, rather than a decoding error
 * that ends the input. A line longer than the JSON document limit is not kept, only measured: a line of gigabytes
 * (a file with no line feeds, {@code /dev/zero}) is skipped like any refused line instead of filling the heap
 * (docs/api.md, "Sending a request").
 */
final class JsonLines {

    private static final int CHUNK = 64 * 1024;

    private final InputStream input;
    private final long maxBytes;
    private final byte[] buffer = new byte[CHUNK];
    private int position;
    private int limit;

    /**
     * @param maxBytes the longest line kept, the JSON document limit: a longer one is only counted
     */
    JsonLines(InputStream input, long maxBytes) {
        this.input = input;
        this.maxBytes = maxBytes;
    }

    /** The next line; null at the end of the input. */
    Line next() throws IOException {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        long length = 0;
        boolean read = false;
        while (true) {
            if (position == limit) {
                limit = Math.max(0, input.read(buffer));
                position = 0;
                if (limit == 0) {
                    if (!read) {
                        return null;
                    }
                    break;
                }
            }
            read = true;
            int end = position;
            while (end < limit && buffer[end] != '\n') {
                end++;
            }
            int count = end - position;
            if (length + count <= maxBytes) {
                kept.write(buffer, position, count);
            }
            length += count;
            position = end;
            if (end < limit) {
                position++;
                break;
            }
        }
        return length > maxBytes ? new Line(null, length) : new Line(trimmed(kept.toByteArray()), length);
    }

    /**
     * One line: its bytes, trimmed, empty when it is blank; or, for a line longer than the limit, none.
     *
     * @param length the line's length in bytes, without its line feed, before trimming
     */
    record Line(byte[] bytes, long length) {

        /** Whether the line was longer than the limit, and so not kept. */
        boolean tooLong() {
            return bytes == null;
        }
    }

    private static byte[] trimmed(byte[] line) {
        int start = 0;
        int end = line.length;
        while (start < end && isSpace(line[start])) {
            start++;
        }
        while (end > start && isSpace(line[end - 1])) {
            end--;
        }
        return Arrays.copyOfRange(line, start, end);
    }

    /** The whitespace JSON allows around a value, but for the line feed that ends a line. */
    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }
}
