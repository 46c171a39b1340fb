package org.scrapycluster.kafkamonitor.rejection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class RecordTextTest {

    @Test
    void validUtf8IsShownAsItIs() {
        assertEquals("{\"url\":\"http://bücher.de/\"}", RecordText.preview("{\"url\":\"http://bücher.de/\"}".getBytes(StandardCharsets.UTF_8), 100));
    }

    @Test
    void bytesThatAreNotUtf8AreEscaped() {
        byte[] latin1 = "{\"a\":\"café\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("{\"a\":\"caf\\xe9\"}", RecordText.preview(latin1, 100));
        assertEquals("\\xff\\xfeok\\xc3", RecordText.preview(new byte[] {(byte) 0xff, (byte) 0xfe, 'o', 'k', (byte) 0xc3}, 100),
                "a sequence cut short at the end is escaped too");
    }

    @Test
    void theTextIsCutToTheLimitWithoutSplittingACharacter() {
        assertEquals("abc", RecordText.preview("abcdef".getBytes(StandardCharsets.UTF_8), 3));
        assertEquals("a", RecordText.preview("a😀b".getBytes(StandardCharsets.UTF_8), 2), "a surrogate pair is not split");
        assertEquals("\\xf", RecordText.preview(new byte[] {(byte) 0xff, (byte) 0xff}, 3));
    }

    @Test
    void aHugeRecordCostsOnlyItsFirstCharacters() {
        byte[] huge = new byte[10_000_000];
        Arrays.fill(huge, (byte) 'x');
        assertEquals("x".repeat(2000), RecordText.preview(huge, 2000));
    }

    @Test
    void noValueIsTheEmptyText() {
        assertEquals("", RecordText.preview(null, 10));
        assertEquals("", RecordText.preview(new byte[0], 10));
    }
}
