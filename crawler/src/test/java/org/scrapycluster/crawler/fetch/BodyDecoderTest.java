package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertFalse(decoder.write(Unpooled.wrappedBuffer(bomb)), "past the limit");
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

    private byte[] decode(byte[] sent, String encoding, int piece, int limit) throws BodyDecoder.CorruptBodyException {
        BodyBuffer body = new BodyBuffer(limit, -1);
        BodyDecoder decoder = new BodyDecoder(body, encoding, inflated);
        try {
            for (int at = 0; at < sent.length; at += piece) {
                assertTrue(decoder.write(Unpooled.wrappedBuffer(sent, at, Math.min(piece, sent.length - at))), "within the limit");
            }
            decoder.finish();
        } finally {
            decoder.close();
        }
        return body.toArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
