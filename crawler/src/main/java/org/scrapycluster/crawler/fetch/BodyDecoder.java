package org.scrapycluster.crawler.fetch;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.netty.buffer.ByteBuf;

/**
 * Writes a response body into its {@link BodyBuffer} as it arrives, undoing a gzip or deflate
 * Content-Encoding on the way (the last Content-Encoding value, as Scrapy's compression middleware reads
 * it; other encodings are kept as sent). Inflating goes piece by piece straight into the buffer and stops
 * one byte past its limit, so a small response that would inflate to gigabytes costs no more memory or work
 * than a body at the limit. A gzip body may hold several members, zero bytes between them are padding; a
 * truncated one keeps what was inflated, and checksums are not looked at (Scrapy's gunzip is as lenient). But
 * Scrapy's gunzip is lenient only once it has inflated something: a gzip body that ends or turns into bytes
 * that are not gzip before anything was inflated from it is corrupt (an empty member followed by garbage is no
 * empty page), and so is a deflate body that ends before anything was inflated from it.
 *
 * <p>The compressed data ends the body ({@link Intake#ENDED}, the rest left unread): bytes after the deflate
 * stream, bytes after a gzip member that are not another member, padding past {@value #MAX_GZIP_PADDING}
 * zero bytes, and a member after more than {@value #MAX_EMPTY_GZIP_MEMBERS} that yielded nothing — so a server sending
 * endless zeros, garbage or empty members after a page cannot keep a fetch reading (docs/operations.md,
 * Compressed bodies). Members that yield something are bounded by the size limit. Runs on the connection's
 * event loop.
 */
final class BodyDecoder {

    /** The Content-Encoding values that are decoded; any other leaves the body as sent. */
    private static final Set<String> DECODED_ENCODINGS = Set.of("gzip", "x-gzip", "deflate", "x-deflate");

    /** Raised when a compressed body is not valid gzip or deflate data. */
    static final class CorruptBodyException extends Exception {
        private static final long serialVersionUID = 1L;

        CorruptBodyException(String message) {
            super(message);
        }
    }

    /** What became of a piece of the body as sent. */
    enum Intake {
        /** All of it was taken (or dropped after {@link #close()}); more may follow. */
        TAKEN,
        /** The decoded body went past the buffer's limit; the excess is dropped. */
        PAST_LIMIT,
        /** The compressed data ended, and bytes follow it that are no part of the body: the body ends here. */
        ENDED
    }

    private enum Format { IDENTITY, GZIP, DEFLATE }

    /** DONE: the compressed data ended; CLOSED: {@link #close()} was called. */
    private enum Stage { HEADER, DATA, TRAILER, PADDING, DONE, CLOSED }

    private static final int PIECE = 64 * 1024;
    private static final int GZIP_TRAILER = 8;
    /** The most header bytes a gzip member may have (its optional name, comment and extra field included). */
    private static final int MAX_GZIP_HEADER = 64 * 1024;
    /** The most zero bytes that may pad gzip members, over the whole body (a tape block of padding is 10 KiB). */
    static final int MAX_GZIP_PADDING = 16 * 1024;
    /** The most gzip members that may yield nothing: after one more, the next member ends the body. */
    static final int MAX_EMPTY_GZIP_MEMBERS = 16;

    private final BodyBuffer body;
    private final Format format;
    private final LongAdder inflatedTotal;
    private final byte[] probe = new byte[1];
    private Inflater inflater;
    private Stage stage = Stage.HEADER;
    /** Header or trailer bytes collected across pieces. */
    private byte[] pending = new byte[0];
    /** gzip members (or the deflate stream) inflated to their end. */
    private int members;
    /** Of those, the members that yielded nothing. */
    private int emptyMembers;
    /** The body's size as the current member started. */
    private int sizeAtMemberStart;
    /** The zero bytes skipped as padding. */
    private int padding;
    /** Whether bytes that are no part of the body were seen after the compressed data. */
    private boolean ended;

    /**
     * @param contentEncoding the response's last Content-Encoding value, or null
     * @param inflatedTotal   counts every byte inflated, over all bodies
     */
    BodyDecoder(BodyBuffer body, String contentEncoding, LongAdder inflatedTotal) {
        this.body = body;
        this.inflatedTotal = inflatedTotal;
        String encoding = contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
        this.format = !DECODED_ENCODINGS.contains(encoding) ? Format.IDENTITY
                : encoding.endsWith("gzip") ? Format.GZIP : Format.DEFLATE;
    }

    /**
     * Takes the next piece of the body as sent.
     *
     * @return what became of it: taken, past the buffer's limit, or the end of the body (the excess, or what
     *         follows the compressed data, is dropped)
     * @throws CorruptBodyException when the compressed data is invalid
     */
    Intake write(ByteBuf content) throws CorruptBodyException {
        if (format == Format.IDENTITY) {
            return body.append(content) ? Intake.TAKEN : Intake.PAST_LIMIT;
        }
        if (stage == Stage.CLOSED) {
            return Intake.TAKEN;
        }
        ByteBuffer input = content.nioBuffer();
        try {
            while (input.hasRemaining() && stage != Stage.DONE) {
                boolean withinLimit = switch (stage) {
                    case HEADER -> readHeader(input);
                    case DATA -> inflate(input);
                    case TRAILER -> readTrailer(input);
                    case PADDING -> skipPadding(input);
                    case DONE, CLOSED -> true;
                };
                if (!withinLimit) {
                    return Intake.PAST_LIMIT;
                }
            }
            return ended || input.hasRemaining() ? Intake.ENDED : Intake.TAKEN;
        } catch (DataFormatException e) {
            throw new CorruptBodyException("invalid " + format.name().toLowerCase(Locale.ROOT) + " data: " + e.getMessage());
        }
    }

    /**
     * Takes the end of the body.
     *
     * @throws CorruptBodyException when nothing was inflated and the body ended within a gzip member (its header
     *                              included) or its deflate stream, or within bytes after a member that are not yet
     *                              known to be anything else (an empty body, or empty members, are no such body)
     */
    void finish() throws CorruptBodyException {
        boolean withinMember = stage == Stage.DATA || stage == Stage.TRAILER || stage == Stage.HEADER && pending.length > 0;
        if (format != Format.IDENTITY && withinMember && body.size() == 0) {
            throw new CorruptBodyException(format.name().toLowerCase(Locale.ROOT) + " data ends before anything was inflated");
        }
    }

    /** Frees the inflater; what is written after is dropped. */
    void close() {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
        stage = Stage.CLOSED;
    }

    private boolean readHeader(ByteBuffer input) throws CorruptBodyException, DataFormatException {
        if (format == Format.DEFLATE) {
            if (!collect(input, 2)) {
                return true;
            }
            // zlib-wrapped as the standard says, or raw deflate as some servers send it (Scrapy accepts both)
            int first = pending[0] & 0xFF;
            boolean zlib = (first & 0x0F) == 8 && ((first << 8) | (pending[1] & 0xFF)) % 31 == 0;
            ByteBuffer start = ByteBuffer.wrap(pending);
            startData(!zlib);
            return inflate(start);
        }
        if (members > 0 && pending.length == 0 && emptyMembers > MAX_EMPTY_GZIP_MEMBERS) {
            stage = Stage.DONE; // the members that yield nothing are too many: the body ends before this one
            return true;
        }
        try {
            if (gzipHeaderLength(input) >= 0) {
                startData(true);
            }
        } catch (CorruptBodyException notGzip) {
            if (members == 0) {
                throw notGzip;
            }
            trailingBytes();
        }
        return true;
    }

    /**
     * Bytes after the last member that are not another one: the body ends before them once something was
     * inflated, as Scrapy's gunzip ignores them.
     */
    private void trailingBytes() throws CorruptBodyException {
        if (body.size() == 0) {
            throw new CorruptBodyException("not gzip data after the last gzip member");
        }
        stage = Stage.DONE;
        ended = true;
    }

    /** The length of the gzip header, once {@code pending} holds all of it (giving back what follows), else -1. */
    private int gzipHeaderLength(ByteBuffer input) throws CorruptBodyException {
        while (true) {
            int length = completeGzipHeader();
            if (length >= 0) {
                input.position(input.position() - (pending.length - length));
                return length;
            }
            if (!input.hasRemaining()) {
                return -1;
            }
            if (pending.length >= MAX_GZIP_HEADER) {
                throw new CorruptBodyException("gzip header longer than " + MAX_GZIP_HEADER + " bytes");
            }
            collect(input, Math.min(MAX_GZIP_HEADER, pending.length + input.remaining()));
        }
    }

    /** The header length when {@code pending} holds a whole gzip header, else -1. */
    private int completeGzipHeader() throws CorruptBodyException {
        if (pending.length < 10) {
            return -1;
        }
        if ((pending[0] & 0xFF) != 0x1F || (pending[1] & 0xFF) != 0x8B || pending[2] != 8) {
            throw new CorruptBodyException("not gzip data");
        }
        int flags = pending[3] & 0xFF;
        int at = 10;
        if ((flags & 0x04) != 0) {
            if (pending.length < at + 2) {
                return -1;
            }
            at += 2 + ((pending[at] & 0xFF) | (pending[at + 1] & 0xFF) << 8);
        }
        for (int text : new int[] {0x08, 0x10}) {
            if ((flags & text) != 0) {
                while (at < pending.length && pending[at] != 0) {
                    at++;
                }
                at++;
            }
        }
        if ((flags & 0x02) != 0) {
            at += 2;
        }
        return at <= pending.length ? at : -1;
    }

    private void startData(boolean raw) {
        pending = new byte[0];
        sizeAtMemberStart = body.size();
        if (inflater == null) {
            inflater = new Inflater(raw);
        } else {
            inflater.reset();
        }
        stage = Stage.DATA;
    }

    /** Inflates what {@code input} holds; false when the body went past the limit. */
    private boolean inflate(ByteBuffer input) throws DataFormatException {
        inflater.setInput(input);
        while (!inflater.finished()) {
            boolean full = body.isFull();
            int added = full ? inflater.inflate(probe, 0, 1) : body.inflate(inflater, PIECE);
            inflatedTotal.add(added);
            if (full && added > 0) {
                return false; // one byte more than the limit holds: the body is too large
            }
            if (added == 0 && !inflater.finished()) {
                if (inflater.needsInput()) {
                    return true;
                }
                throw new DataFormatException(inflater.needsDictionary() ? "a preset dictionary is required"
                        : "no progress");
            }
        }
        members++;
        if (body.size() == sizeAtMemberStart) {
            emptyMembers++;
        }
        stage = format == Format.GZIP ? Stage.TRAILER : Stage.DONE;
        return true;
    }

    private boolean readTrailer(ByteBuffer input) {
        if (collect(input, GZIP_TRAILER)) {
            pending = new byte[0];
            stage = Stage.PADDING; // another member may follow
        }
        return true;
    }

    /**
     * Skips the zero bytes that may pad a gzip member, up to {@link #MAX_GZIP_PADDING} in all (more ends the
     * body); the first other byte starts what follows it.
     */
    private boolean skipPadding(ByteBuffer input) {
        while (input.hasRemaining()) {
            if (input.get(input.position()) != 0) {
                stage = Stage.HEADER;
                return true;
            }
            if (padding == MAX_GZIP_PADDING) {
                stage = Stage.DONE;
                return true;
            }
            input.get();
            padding++;
        }
        return true;
    }

    /** Moves bytes from {@code input} into {@code pending} until it holds {@code wanted}; true when it does. */
    private boolean collect(ByteBuffer input, int wanted) {
        int taking = Math.min(wanted - pending.length, input.remaining());
        if (taking > 0) {
            byte[] grown = Arrays.copyOf(pending, pending.length + taking);
            input.get(grown, pending.length, taking);
            pending = grown;
        }
        return pending.length >= wanted;
    }

}
