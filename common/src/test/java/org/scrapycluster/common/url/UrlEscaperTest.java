package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;

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

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(delimiter = '|', value = {
        "http://example.com/\u00e9?q=\u00e9&r=\u00e9t\u00e9#\u00e9 | windows-1252 | http://example.com/%C3%A9?q=%E9&r=%E9t%E9#%E9",
        "http://example.com/?q=\u20ac | windows-1252 | http://example.com/?q=%80",
        "http://example.com/?q=\u20ac\u00e9 | ISO-8859-1 | http://example.com/?q=%26%238364%3B%E9",
        "http://example.com/?q=\ud83d\ude00 | Shift_JIS | http://example.com/?q=%26%23128512%3B",
        "http://example.com/?q=\u8349 | Shift_JIS | http://example.com/?q=%91%90",
        "http://example.com/?q=\u30a2#\u30a2 | Shift_JIS | http://example.com/?q=%83A#%83A",
        "http://example.com/?q=\u4e00 | Big5 | http://example.com/?q=%A4@",
        "http://example.com/?q=\u00e9 | Shift_JIS | http://example.com/?q=%26%23233%3B",
        "http://example.com/?q=\uff21b&c=1 | ISO-2022-JP | http://example.com/?q=%1B$B%23A%1B(Bb&c=1",
        "http://example.com/?q=\u30a2\u30c2x | ISO-2022-JP | http://example.com/?q=%1B$B%25%22%25B%1B(Bx",
        "http://example.com/?q=\ud55ca&b=1 | ISO-2022-KR | http://example.com/?q=%1B$)C%0EGQ%0Fa&b=1",
        "http://example.com/?q=\u00e9 | UTF-16 | http://example.com/?q=%C3%A9",
        "http://example.com/?q=a b | windows-1252 | http://example.com/?q=a%20b",
    })
    void escapesTheQueryAndFragmentInThePagesEncoding(String url, String charset, String safe) {
        assertEquals(safe, UrlEscaper.escape(url, Charset.forName(charset)));
    }
}
