package org.scrapycluster.kafkamonitor.tool;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of JSON lines input, as bytes without the spaces, tabs and carriage return around them. Kept as bytes,
 * not decoded, so that a line which is not UTF-8 is one line its JSON parser refuses, rather than a decoding error
 * that ends the input.
 */
final class JsonLines {

    private final InputStream input;

    JsonLines(InputStream input) {
        this.input = new BufferedInputStream(input);
    }

    /** The next line, empty when it is blank; null at the end of the input. */
    byte[] next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b = input.read();
        if (b == -1) {
            return null;
        }
        for (; b != -1 && b != '\n'; b = input.read()) {
            line.write(b);
        }
        return trimmed(line.toByteArray());
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
