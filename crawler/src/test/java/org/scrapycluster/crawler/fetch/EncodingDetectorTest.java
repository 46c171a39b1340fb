package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

class EncodingDetectorTest {

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Labels resolve to the Python codec names w3lib's resolve_encoding gives (checked against CPython's tables). */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "utf-8, utf-8", "UTF8, utf-8", "utf_8, utf-8", "iso-8859-1, cp1252", "latin1, cp1252", "US-ASCII, cp1252",
        "iso-8859-7, iso8859-7", "ISO_8859-7, iso8859-7", "greek, iso8859-7", "windows-1251, cp1251",
        "cp1251, cp1251", "koi8-r, koi8-r", "shift_jis, cp932", "x-sjis, cp932", "euc-jp, euc_jp",
        "gb2312, gb18030", "gbk, gb18030", "big5, big5hkscs", "euc-kr, cp949", "iso-8859-9, cp1254",
        "tis-620, cp874", "utf-16, utf-16", "iso-8859-15, iso8859-15", "macintosh, mac-roman",
    })
    void resolvesLabelsAsW3lib(String label, String python) {
        assertEquals(python, PythonCodecs.resolve(label).orElseThrow().name());
    }

    /** Checked a few thousand characters at a time, a body is valid UTF-8 to its last byte, or not. */
    @Test
    void aLongBodyIsUtf8ToItsEndOrNot() {
        byte[] accented = "é€😀".repeat(20_000).getBytes(StandardCharsets.UTF_8);
        assertTrue(EncodingDetector.isUtf8(accented));
        assertFalse(EncodingDetector.isUtf8(Arrays.copyOf(accented, accented.length - 1)), "cut inside its last character");
        byte[] spoiled = accented.clone();
        spoiled[spoiled.length / 2] = (byte) 0xFF;
        assertFalse(EncodingDetector.isUtf8(spoiled));
        assertTrue(EncodingDetector.isUtf8(new byte[0]));
    }

    @Test
    void unknownAndNonTextLabelsAreNotEncodings() {
        assertTrue(PythonCodecs.resolve("no-such-charset").isEmpty());
        assertTrue(PythonCodecs.resolve("base64").isEmpty());
        assertTrue(PythonCodecs.resolve("").isEmpty());
    }

    @Test
    void normalisesLikePython() {
        assertEquals("iso_8859_7", PythonCodecs.normalize("  ISO--8859 7 "));
        assertEquals("x_mac.roman", PythonCodecs.normalize("x-mac.roman"));
    }

    @Test
    void contentTypeCharsetComesFirst() {
        byte[] body = ascii("<meta charset=\"windows-1251\"><p>x</p>");
        assertEquals("iso8859-7", EncodingDetector.detect("text/html; charset=ISO-8859-7", body).name());
        assertEquals("cp1251", EncodingDetector.detect("text/html", body).name());
        assertEquals("cp1251", EncodingDetector.detect("text/html; charset=bogus", body).name(),
                "an unknown header charset is passed over");
        assertEquals("utf-8", EncodingDetector.detect("text/html;CHARSET=utf8", body).name());
        assertEquals("utf-8", EncodingDetector.detect("text/html; charset=utf\u00B98", body).name(),
                "the label runs on over letters and digits of any script, which Python's normalisation then drops");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<meta charset=\"koi8-r\"> | koi8-r",
        "<META CHARSET=koi8-r> | koi8-r",
        "<meta name=\"x\" charset='koi8-r'> | koi8-r",
        "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-7\"> | iso8859-7",
        "<meta content=\"text/html; charset=iso-8859-7\" http-equiv=\"Content-Type\"> | iso8859-7",
        "<meta http-equiv=Content-Type content='text/html;charset=windows-1251'> | cp1251",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-7\"?><html> | iso8859-7",
        "<html><body><meta charset=\"koi8-r\"> | cp1252",
        "<meta name=\"viewport\" content=\"width=device-width\"><meta charset=\"koi8-r\"> | koi8-r",
    })
    void declaredInTheBody(String head, String expected) {
        assertEquals(expected, EncodingDetector.detect(null, ascii(head)).name());
    }

    @Test
    void declarationAfterTheFirst4096BytesIsNotSeen() {
        String late = "<!--" + "x".repeat(4100) + "--><meta charset=\"koi8-r\">";
        assertEquals("cp1252", EncodingDetector.detect(null, ascii(late)).name());
    }

    @Test
    void byteOrderMarks() {
        assertEquals("utf-8", EncodingDetector.detect(null, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'a'}).name());
        assertEquals("utf-16-le", EncodingDetector.detect(null, new byte[] {(byte) 0xFF, (byte) 0xFE, 'a', 0}).name());
        assertEquals("utf-16-be", EncodingDetector.detect(null, new byte[] {(byte) 0xFE, (byte) 0xFF, 0, 'a'}).name());
        assertEquals("utf-32-le", EncodingDetector.detect(null, new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0}).name());
    }

    @Test
    void utf16AndUtf32WithoutAByteOrderMarkAreLittleEndianAsPythonReadsThem() {
        String text = "<a href='/日本'>";
        DetectedEncoding utf16 = EncodingDetector.detect("text/html; charset=utf-16", text.getBytes(StandardCharsets.UTF_16LE));
        assertEquals("utf-16", utf16.name());
        assertEquals(text, utf16.decode(text.getBytes(StandardCharsets.UTF_16LE)));
        assertEquals(text, utf16.decode(("\uFEFF" + text).getBytes(StandardCharsets.UTF_16BE)), "a big-endian mark is read as such");
        DetectedEncoding utf32 = EncodingDetector.detect("text/html; charset=utf-32", text.getBytes(Charset.forName("UTF-32LE")));
        assertEquals(text, utf32.decode(text.getBytes(Charset.forName("UTF-32LE"))));
    }

    @Test
    void undeclaredBodiesAreGuessedAsScrapyGuesses() {
        assertEquals("cp1252", EncodingDetector.detect(null, ascii("<p>plain</p>")).name());
        assertEquals("cp1252", EncodingDetector.detect(null, new byte[0]).name());
        assertEquals("utf-8", EncodingDetector.detect(null, "<p>καλημέρα</p>".getBytes(StandardCharsets.UTF_8)).name());
        DetectedEncoding latin = EncodingDetector.detect(null, "<p>café</p>".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals("cp1252", latin.name());
        assertEquals(Charset.forName("windows-1252"), latin.charset());
    }

    /** A random response and the encoding Scrapy 1.5 reports for it, from {@code encoding/detected-sampled.json}. */
    record SampledResponse(String contentType, String body, String encoding) {
        @Override
        public String toString() {
            return contentType + " / " + body.substring(0, Math.min(body.length(), 40));
        }
    }

    static List<SampledResponse> sampledResponses() throws IOException {
        try (InputStream in = EncodingDetectorTest.class.getResourceAsStream("/encoding/detected-sampled.json")) {
            return new ObjectMapper().readValue(in, new TypeReference<>() { });
        }
    }

    /** Random responses answered by Scrapy 1.5's code over w3lib 1.18 ({@code sample_encodings.py} writes them). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("sampledResponses")
    void sampledResponsesAreNamedAsScrapyNamesThem(SampledResponse response) {
        byte[] body = Base64.getDecoder().decode(response.body());
        assertEquals(response.encoding(), EncodingDetector.detect(response.contentType(), body).name());
    }
}
