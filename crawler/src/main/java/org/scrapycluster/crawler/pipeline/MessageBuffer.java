package org.scrapycluster.crawler.pipeline;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * The bytes of one result message as they are written: an unsynchronised, growable array that the JSON
 * generator writes into through {@link OutputStream} and {@link Utf8Text} escapes a body straight into. It grows no
 * further than its {@link #limit}: a message that would be larger stops being written there, so that the message of a
 * ten-megabyte page listing hundreds of thousands of links, which Kafka would not take, never takes the memory of one.
 */
final class MessageBuffer extends OutputStream {

    /** A message would grow past the buffer's limit: it is not written further. */
    static final class LimitReached extends RuntimeException {
        LimitReached() {
            super("the message would be larger than its limit", null, false, false);
        }
    }

    private byte[] bytes;
    private int size;
    private int limit = Integer.MAX_VALUE;

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

    /**
     * The array to write {@code length} more bytes into at {@link #size()}, grown if it must be.
     *
     * @throws LimitReached when the message would be larger than the limit
     */
    byte[] room(int length) {
        long needed = (long) size + length;
        if (needed > limit) {
            throw new LimitReached();
        }
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(bytes.length * 2L, needed)));
        }
        return bytes;
    }

    /**
     * Refuses at once a text that will take at least {@code length} bytes when even that many would not fit, so that it is
     * never made (a body's base64, say, of several times the limit).
     *
     * @throws LimitReached when {@code length} more bytes would make the message larger than the limit
     */
    void requireRoom(long length) {
        if (size + length > limit) {
            throw new LimitReached();
        }
    }

    /** Grows the array to hold {@code capacity} bytes, or the limit when that is less, without writing. */
    void reserve(int capacity) {
        int wanted = Math.min(capacity, limit);
        if (wanted > bytes.length) {
            bytes = Arrays.copyOf(bytes, wanted);
        }
    }

    /** The most bytes the message being written may have, until {@link #clear}. */
    void limit(int limit) {
        this.limit = limit;
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
     * Empties the buffer for the next message, with no limit, keeping its array unless it has grown past
     * {@code retained} bytes (a huge page's message is not held on to).
     */
    void clear(int retained) {
        size = 0;
        limit = Integer.MAX_VALUE;
        if (bytes.length > retained) {
            bytes = new byte[retained];
        }
    }
}
