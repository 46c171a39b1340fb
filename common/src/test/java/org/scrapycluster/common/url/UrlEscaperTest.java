package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlEscaperTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "http://www.example.com/a b?q=é#f g | http://www.example.com/a%20b?q=%C3%A9#f%20g",
        "http://www.example.com/do?b=1&a=2#top | http://www.example.com/do?b=1&a=2#top",
        "http://Example.COM/Path | http://Example.COM/Path",
        "http://www.bücher.de/ | http://www.xn--bcher-kva.de/",
        "http://example.com:/x | http://example.com/x",
        "http://example.com/%7e%zz | http://example.com/%7e%zz",
        "草薙 素子 | %E8%8D%89%E8%96%99%20%E7%B4%A0%E5%AD%90",
        "http://example.com | http://example.com",
    })
    void escapesWhatMayNotAppearInAUrl(String url, String safe) {
        assertEquals(safe, UrlEscaper.escape(url));
    }

    @Test
    void escapesCharactersOutsideRfc3986ButKeepsThePipe() {
        assertEquals("http://example.com/%22%3C%3E%5C%5E%60%7B%7D|", UrlEscaper.escape("http://example.com/\"<>\\^`{}|"));
    }

    @Test
    void safeUrlIsUnchanged() {
        String safe = "https://user@example.com:8443/a/b;p?x=1&y=%2F#frag";
        assertEquals(safe, UrlEscaper.escape(safe));
        assertEquals(safe, UrlEscaper.escape(UrlEscaper.escape(safe)));
    }
}
