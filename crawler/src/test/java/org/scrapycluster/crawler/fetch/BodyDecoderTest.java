package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.embedded.origin.CompressedPages;

import io.netty.buffer.Unpooled;

/** Decoding bodies as they arrive, in pieces of every size, within the buffer's limit. */
class BodyDecoderTest {

    private static final byte[] PAGE = "<html><body>a page, a page, a page, and more of the page</body></html>\n".repeat(40)
            .getBytes(StandardCharsets.UTF_8);

    private final LongAdder inflated = new LongAdder();

    @ParameterizedTest(name = "pieces of {0} bytes")
    @ValueSource(ints = {1, 2, 7, 10, 4096})
    void gzipZlibAndRawDeflateDecodeWhateverThePieces(int piece) throws Exception {
        assertArrayEquals(PAGE, decode(CompressedPages.gzip(PAGE), "gzip", piece, 1 << 20));
        assertArrayEquals(PAGE, decode(CompressedPages.gzip(PAGE), "X-GZIP", piece, 1 << 20));
        assertArrayEquals(PAGE, decode(CompressedPages.deflate(PAGE, false), "deflate", piece, 1 << 20));
        assertArrayEquals(PAGE, decode(CompressedPages.deflate(PAGE, true), "deflate", piece, 1 << 20));
    }

    @ParameterizedTest(name = "pieces of {0} bytes")
    @ValueSource(ints = {1, 3, 4096})
    void gzipMembersFollowEachOtherAndTrailingBytesAreIgnored(int piece) throws Exception {
        byte[] second = "second member".getBytes(StandardCharsets.UTF_8);
        byte[] body = concat(CompressedPages.gzip(PAGE), CompressedPages.gzip(second),
                "junk".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(concat(PAGE, second), decode(body, "gzip", piece, 1 << 20));
    }

    @ParameterizedTest(name = "pieces of {0} bytes")
    @ValueSource(ints = {1, 3, 4096})
    void bytesAfterTheMembersThatAreNotGzipAreIgnoredOnlyOnceSomethingWasInflated(int piece) throws Exception {
        byte[] empty = CompressedPages.gzip(new byte[0]);
        byte[] page = CompressedPages.gzip(PAGE);
        for (byte[] garbage : List.of("junk".getBytes(StandardCharsets.US_ASCII), new byte[] {'x'}, new byte[] {0x1F},
                new byte[] {0x1F, (byte) 0x8B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, new byte[] {0, 0, 'j', 'u', 'n', 'k'})) {
            assertArrayEquals(PAGE, decode(concat(page, garbage), "gzip", piece, 1 << 20), () -> Arrays.toString(garbage));
            BodyDecoder.CorruptBodyException e = assertThrows(BodyDecoder.CorruptBodyException.class,
                    () -> decode(concat(empty, garbage), "gzip", piece, 1 << 20), () -> Arrays.toString(garbage));
            assertTrue(e.getMessage().startsWith("gzip data ends before anything was inflated")
                    || e.getMessage().equals("not gzip data after the last gzip member"), e.getMessage());
        }
        assertThrows(BodyDecoder.CorruptBodyException.class,
                () -> decode(Arrays.copyOf(empty, empty.length - 3), "gzip", piece, 1 << 20), "an empty member's trailer cut short");
    }

    @ParameterizedTest(name = "pieces of {0} bytes")
    @ValueSource(ints = {1, 3, 4096})
    void zeroBytesPaddingGzipMembersAreSkipped(int piece) throws Exception {
        byte[] empty = CompressedPages.gzip(new byte[0]);
        byte[] second = "second member".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(new byte[0], decode(concat(empty, new byte[5]), "gzip", piece, 1 << 20));
        assertArrayEquals(new byte[0], decode(concat(empty, empty), "gzip", piece, 1 << 20));
        assertArrayEquals(concat(PAGE, second), decode(concat(CompressedPages.gzip(PAGE), new byte[3], CompressedPages.gzip(second)),
                "gzip", piece, 1 << 20));
    }

    @Test
    void aGzipHeaderWithExtraFieldNameCommentAndChecksumIsSkipped() throws Exception {
        byte[] plain = CompressedPages.gzip(PAGE);
        byte[] header = {0x1F, (byte) 0x8B, 8, 0x1E, 0, 0, 0, 0, 0, (byte) 0xFF, 3, 0, 'x', 'y', 'z', 'n', 'a', 'm', 'e', 0,
            'c', 0, 0x12, 0x34};
        byte[] body = concat(header, Arrays.copyOfRange(plain, 10, plain.length));
        assertArrayEquals(PAGE, decode(body, "gzip", 5, 1 << 20));
    }

    @Test
    void otherEncodingsAreKeptAsSent() throws Exception {
        byte[] brotli = {0x0B, 0x02, (byte) 0x80, 'h', 'i', 0x03};
        assertArrayEquals(brotli, decode(brotli, "br", 2, 1 << 20));
        assertArrayEquals(PAGE, decode(PAGE, null, 100, 1 << 20));
        assertEquals(0, inflated.sum());
    }

    @Test
    void inflatingStopsOneBytePastTheLimit() throws Exception {
        int limit = 100_000;
        byte[] bomb = CompressedPages.gzip(new byte[5_000_000]);
        BodyBuffer body = new BodyBuffer(limit, bomb.length);
        BodyDecoder decoder = new BodyDecoder(body, "gzip", inflated);
        assertEquals(BodyDecoder.Intake.PAST_LIMIT, decoder.write(Unpooled.wrappedBuffer(bomb)));
        decoder.close();
        assertEquals(limit, body.size());
        assertEquals(limit + 1, inflated.sum(), "the limit, and one byte that tells the body goes on");
        assertArrayEquals(PAGE, decode(CompressedPages.gzip(PAGE), "gzip", 64, PAGE.length), "a body of exactly the limit is whole");
    }

    @Test
    void corruptDataIsAClearError() {
        BodyDecoder.CorruptBodyException notGzip = assertThrows(BodyDecoder.CorruptBodyException.class,
                () -> decode(PAGE, "gzip", 100, 1 << 20));
        assertEquals("not gzip data", notGzip.getMessage());
        byte[] broken = CompressedPages.gzip(PAGE);
        Arrays.fill(broken, 10, 20, (byte) 0xFF);
        BodyDecoder.CorruptBodyException badData = assertThrows(BodyDecoder.CorruptBodyException.class,
                () -> decode(broken, "gzip", 100, 1 << 20));
        assertTrue(badData.getMessage().startsWith("invalid gzip data"), badData.getMessage());
    }

    @Test
    void aBodyThatEndsBeforeAnythingCouldBeInflatedIsCorruptButAnEmptyOrTruncatedOneIsNot() throws Exception {
        byte[] gzip = CompressedPages.gzip(PAGE);
        byte[] zlib = CompressedPages.deflate(PAGE, false);
        for (byte[] tooShort : List.of("hi".getBytes(StandardCharsets.US_ASCII), "not gzi".getBytes(StandardCharsets.US_ASCII),
                Arrays.copyOf(gzip, 5), Arrays.copyOf(gzip, 10))) {
            BodyDecoder.CorruptBodyException e = assertThrows(BodyDecoder.CorruptBodyException.class,
                    () -> decode(tooShort, "gzip", 1, 1 << 20), () -> Arrays.toString(tooShort));
            assertEquals("gzip data ends before anything was inflated", e.getMessage());
        }
        for (byte[] tooShort : List.of(new byte[] {'x'}, Arrays.copyOf(zlib, 2))) {
            assertThrows(BodyDecoder.CorruptBodyException.class, () -> decode(tooShort, "deflate", 1, 1 << 20),
                    () -> Arrays.toString(tooShort));
        }
        assertArrayEquals(new byte[0], decode(new byte[0], "gzip", 1, 1 << 20), "an empty body");
        assertArrayEquals(new byte[0], decode(new byte[0], "deflate", 1, 1 << 20), "an empty body");
        byte[] truncated = decode(Arrays.copyOf(gzip, gzip.length / 2), "gzip", 7, 1 << 20);
        assertTrue(truncated.length > 0 && Arrays.equals(truncated, Arrays.copyOf(PAGE, truncated.length)),
                "a truncated gzip body keeps what was inflated");
        byte[] truncatedZlib = decode(Arrays.copyOf(zlib, zlib.length / 2), "deflate", 7, 1 << 20);
        assertTrue(truncatedZlib.length > 0 && Arrays.equals(truncatedZlib, Arrays.copyOf(PAGE, truncatedZlib.length)),
                "a truncated deflate body keeps what was inflated");
    }

    @ParameterizedTest(name = "pieces of {0} bytes")
    @ValueSource(ints = {1, 3, 4096})
    void whatFollowsTheCompressedDataEndsTheBodyWhereItStarts(int piece) throws Exception {
        byte[] gzip = CompressedPages.gzip(PAGE);
        byte[] junk = "junk after the data".getBytes(StandardCharsets.US_ASCII);
        for (byte[] deflate : List.of(CompressedPages.deflate(PAGE, false), CompressedPages.deflate(PAGE, true))) {
            byte[] sent = concat(deflate, junk);
            Decoded decoded = feed(sent, "deflate", piece);
            assertArrayEquals(PAGE, decoded.body());
            assertEquals(pieceEnd(deflate.length, piece, sent.length), decoded.endedWithin(),
                    "ended in the piece holding the first byte after the stream");
        }
        byte[] sent = concat(gzip, junk);
        Decoded garbage = feed(sent, "gzip", piece);
        assertArrayEquals(PAGE, garbage.body());
        assertEquals(pieceEnd(gzip.length + 9, piece, sent.length), garbage.endedWithin(),
                "ended once the bytes after the member are known to be no gzip header");
        sent = concat(gzip, new byte[1 << 20]);
        Decoded padded = feed(sent, "gzip", piece);
        assertArrayEquals(PAGE, padded.body());
        assertEquals(pieceEnd(gzip.length + BodyDecoder.MAX_GZIP_PADDING, piece, sent.length), padded.endedWithin(),
                "ended at the first zero byte past the padding allowed");
        byte[] empty = CompressedPages.gzip(new byte[0]);
        sent = concat(gzip, repeat(empty, 10_000));
        Decoded empties = feed(sent, "gzip", piece);
        assertArrayEquals(PAGE, empties.body());
        assertEquals(pieceEnd(gzip.length + (BodyDecoder.MAX_EMPTY_GZIP_MEMBERS + 1) * empty.length, piece, sent.length),
                empties.endedWithin(), "ended at the first member past those that yield nothing allowed");
        Decoded onlyEmpties = feed(repeat(empty, 10_000), "gzip", piece);
        assertArrayEquals(new byte[0], onlyEmpties.body(), "members that yield nothing are an empty page, as Scrapy's gunzip reads them");
        assertEquals(pieceEnd((BodyDecoder.MAX_EMPTY_GZIP_MEMBERS + 1) * empty.length, piece, 10_000 * empty.length),
                onlyEmpties.endedWithin());
    }

    @Test
    void paddingAndMembersThatYieldNothingUpToTheirAllowanceContinueTheBody() throws Exception {
        byte[] second = "second member".getBytes(StandardCharsets.UTF_8);
        byte[] empty = CompressedPages.gzip(new byte[0]);
        byte[] allowed = concat(CompressedPages.gzip(PAGE), new byte[BodyDecoder.MAX_GZIP_PADDING],
                repeat(empty, BodyDecoder.MAX_EMPTY_GZIP_MEMBERS), CompressedPages.gzip(second));
        Decoded decoded = feed(allowed, "gzip", 1000);
        assertEquals(-1, decoded.endedWithin());
        assertArrayEquals(concat(PAGE, second), decoded.body());
        byte[] oneMore = concat(CompressedPages.gzip(PAGE), repeat(empty, BodyDecoder.MAX_EMPTY_GZIP_MEMBERS + 1),
                CompressedPages.gzip(second));
        assertArrayEquals(PAGE, feed(oneMore, "gzip", 1000).body(), "the body ends before the member after too many empty ones");
    }

    @Test
    void writesAfterCloseAreDropped() throws Exception {
        BodyBuffer body = new BodyBuffer(1 << 20, -1);
        BodyDecoder decoder = new BodyDecoder(body, "gzip", inflated);
        decoder.close();
        assertEquals(BodyDecoder.Intake.TAKEN, decoder.write(Unpooled.wrappedBuffer(PAGE)));
        assertEquals(0, body.size());
    }

    /** A body decoded, and the end of the piece in which the decoder said the body ended (-1 if it did not). */
    private record Decoded(byte[] body, int endedWithin) {
    }

    private Decoded feed(byte[] sent, String encoding, int piece) throws BodyDecoder.CorruptBodyException {
        BodyBuffer body = new BodyBuffer(1 << 20, -1);
        BodyDecoder decoder = new BodyDecoder(body, encoding, inflated);
        try {
            for (int at = 0; at < sent.length; at += piece) {
                int end = Math.min(at + piece, sent.length);
                BodyDecoder.Intake intake = decoder.write(Unpooled.wrappedBuffer(sent, at, end - at));
                assertNotEquals(BodyDecoder.Intake.PAST_LIMIT, intake);
                if (intake == BodyDecoder.Intake.ENDED) {
                    return new Decoded(body.toArray(), end);
                }
            }
            decoder.finish();
        } finally {
            decoder.close();
        }
        return new Decoded(body.toArray(), -1);
    }

    private byte[] decode(byte[] sent, String encoding, int piece, int limit) throws BodyDecoder.CorruptBodyException {
        BodyBuffer body = new BodyBuffer(limit, -1);
        BodyDecoder decoder = new BodyDecoder(body, encoding, inflated);
        try {
            for (int at = 0; at < sent.length; at += piece) {
                BodyDecoder.Intake intake = decoder.write(Unpooled.wrappedBuffer(sent, at, Math.min(piece, sent.length - at)));
                assertNotEquals(BodyDecoder.Intake.PAST_LIMIT, intake, "within the limit");
                if (intake == BodyDecoder.Intake.ENDED) {
                    break;
                }
            }
            decoder.finish();
        } finally {
            decoder.close();
        }
        return body.toArray();
    }

    /** The end of the piece of {@code piece} bytes that holds byte {@code index} of {@code length}. */
    private static int pieceEnd(int index, int piece, int length) {
        return Math.min((index / piece + 1) * piece, length);
    }

    private static byte[] repeat(byte[] part, int times) {
        byte[][] parts = new byte[times][];
        Arrays.fill(parts, part);
        return concat(parts);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
