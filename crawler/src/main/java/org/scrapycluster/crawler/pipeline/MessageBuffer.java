package org.scrapycluster.crawler.pipeline;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * The bytes of one result message as they are written: an unsynchronised, growable array that the JSON
 * generator writes into through {@link OutputStream} and {@link Utf8Text} escapes a body straight into.
 */
final class MessageBuffer extends OutputStream {

    private byte[] bytes;
    private int size;

    MessageBuffer(int capacity) {
        this.bytes = new byte[Math.max(capacity, 16)];
    }

    @Override
    public void write(int b) {
        room(1)[size++] = (byte) b;
    }

    @Override
    public void write(byte[] source, int offset, int length) {
        System.arraycopy(source, offset, room(length), size, length);
        size += length;
    }

    /** The array to write {@code length} more bytes into at {@link #size()}, grown if it must be. */
    byte[] room(int length) {
        if (size + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
        }
        return bytes;
    }

    /** How many bytes are written. */
    int size() {
        return size;
    }

    /** Counts {@code length} bytes written straight into the array {@link #room} gave. */
    void wrote(int length) {
        size += length;
    }

    /** Forgets what was written after the first {@code size} bytes. */
    void truncate(int size) {
        this.size = size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /**
     * Empties the buffer for the next message, keeping its array unless it has grown past {@code retained} bytes
     * (a huge page's message is not held on to).
     */
    void clear(int retained) {
        size = 0;
        if (bytes.length > retained) {
            bytes = new byte[retained];
        }
    }
}
