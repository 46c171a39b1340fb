package org.scrapycluster.crawler.fetch;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.netty.buffer.ByteBuf;

/** A response body collected up to a limit: it never holds more than the limit, whatever the server sends. */
final class BodyBuffer {

    private static final byte[] EMPTY = new byte[0];
    /** The most an announced length reserves before any of the body has come: the server may never send it. */
    private static final int FIRST_RESERVE = 256 * 1024;

    private final int limit;
    private byte[] bytes;
    private int size;

    /** @param expected the announced length, or -1 */
    BodyBuffer(int limit, long expected) {
        this.limit = limit;
        this.bytes = expected > 0 ? new byte[(int) Math.min(expected, Math.min(limit, FIRST_RESERVE))] : EMPTY;
    }

    /** Appends what fits; returns false when {@code content} went past the limit (the excess is dropped). */
    boolean append(ByteBuf content) {
        int readable = content.readableBytes();
        int room = limit - size;
        int taking = Math.min(readable, room);
        if (taking > 0) {
            ensureCapacity(size + taking);
            content.getBytes(content.readerIndex(), bytes, size, taking);
            size += taking;
        }
        return taking == readable;
    }

    /**
     * Inflates into the buffer what {@code inflater} yields, at most {@code max} bytes and never past the
     * limit; growing the buffer only as far as needed.
     *
     * @return the bytes added
     */
    int inflate(Inflater inflater, int max) throws DataFormatException {
        int taking = Math.min(max, limit - size);
        if (taking <= 0) {
            return 0;
        }
        ensureCapacity(size + taking);
        int added = inflater.inflate(bytes, size, taking);
        size += added;
        return added;
    }

    /** Whether the buffer holds as much as the limit allows. */
    boolean isFull() {
        return size == limit;
    }

    byte[] toArray() {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }

    int size() {
        return size;
    }

    private void ensureCapacity(int needed) {
        if (needed > bytes.length) {
            int grown = (int) Math.min(limit, Math.max(needed, Math.max(16 * 1024L, bytes.length * 2L)));
            bytes = Arrays.copyOf(bytes, grown);
        }
    }
}
