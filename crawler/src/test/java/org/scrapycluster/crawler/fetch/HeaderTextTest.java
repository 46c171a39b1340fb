package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class HeaderTextTest {

    private static String asNettyReadsIt(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void utf8ValuesAreReadAsUtf8AndOthersAsLatin1() {
        assertEquals("attachment; filename=\"résumé.pdf\"",
                HeaderText.value(asNettyReadsIt("attachment; filename=\"résumé.pdf\"".getBytes(StandardCharsets.UTF_8))));
        assertEquals("café", HeaderText.value(asNettyReadsIt("café".getBytes(StandardCharsets.ISO_8859_1))));
        assertEquals("plain", HeaderText.value("plain"));
    }

    @Test
    void locationBytesThatAreNotUtf8AreEscaped() {
        assertEquals("/caf\u00e9", HeaderText.urlFromHeader(asNettyReadsIt("/café".getBytes(StandardCharsets.UTF_8))));
        assertEquals("/caf%E9", HeaderText.urlFromHeader(asNettyReadsIt("/café".getBytes(StandardCharsets.ISO_8859_1))));
        assertEquals("/%C3x", HeaderText.urlFromHeader(asNettyReadsIt(new byte[] {'/', (byte) 0xC3, 'x'})));
        assertEquals("/%ED%A0%80", HeaderText.urlFromHeader(asNettyReadsIt(new byte[] {'/', (byte) 0xED, (byte) 0xA0, (byte) 0x80})),
                "an encoded surrogate is not UTF-8");
        assertEquals("/%C0%AF", HeaderText.urlFromHeader(asNettyReadsIt(new byte[] {'/', (byte) 0xC0, (byte) 0xAF})),
                "an overlong form is not UTF-8");
    }
}
