package org.scrapycluster.common.bytes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

class BytePrefixTest {

    @Test
    void theMarksAreTheOnesTheJdksEncodersWrite() {
        assertTrue(BytePrefix.UTF_16_BE_MARK.starts("a".getBytes(StandardCharsets.UTF_16)), "Java's UTF-16 writes big-endian with a mark");
        assertTrue(BytePrefix.UTF_16_LE_MARK.starts("\uFEFFa".getBytes(StandardCharsets.UTF_16LE)));
        assertTrue(BytePrefix.UTF_8_MARK.starts("\uFEFFa".getBytes(StandardCharsets.UTF_8)));
        assertTrue(BytePrefix.UTF_32_BE_MARK.starts("\uFEFFa".getBytes(Charset.forName("UTF-32BE"))));
        assertTrue(BytePrefix.UTF_32_LE_MARK.starts("\uFEFFa".getBytes(Charset.forName("UTF-32LE"))));
        assertTrue(BytePrefix.UTF_16_LE_MARK.starts("\uFEFFa".getBytes(Charset.forName("UTF-32LE"))), "a UTF-32 mark starts as UTF-16's");
    }

    @Test
    void gzipDataStartsWithItsMagicNumber() throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
            out.write("{}".getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(BytePrefix.GZIP.starts(zipped.toByteArray()));
        assertFalse(BytePrefix.GZIP.starts("{}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("1f 8b", BytePrefix.GZIP.toString());
    }

    @Test
    void dataShorterThanThePrefixDoesNotStartWithIt() {
        assertFalse(BytePrefix.UTF_8_MARK.starts(new byte[] {(byte) 0xEF, (byte) 0xBB}));
        assertFalse(BytePrefix.UTF_8_MARK.starts(new byte[0]));
        assertEquals(3, BytePrefix.UTF_8_MARK.length());
    }

    @Test
    void aPrefixHasBytesOnly() {
        assertThrows(IllegalArgumentException.class, () -> BytePrefix.of(0x100));
        assertThrows(IllegalArgumentException.class, () -> BytePrefix.of(-1));
        assertThrows(IllegalArgumentException.class, BytePrefix::of);
    }
}
