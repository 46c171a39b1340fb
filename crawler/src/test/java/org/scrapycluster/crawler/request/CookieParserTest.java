package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The crawl's cookie string is read as the original reads it (docs/compatibility.md §10.3). */
class CookieParserTest {

    @Test
    void attributesOfASetCookieLikeStringAreOrdinaryPairs() {
        assertEquals(Map.of("blah", "stuff", "expires", "Thu, 18 May 2017 12:42:29 GMT", "path", "/", "Domain", ".domain.com"),
                CookieParser.parse("blah=stuff; expires=Thu, 18 May 2017 12:42:29 GMT; path=/; Domain=.domain.com"));
    }

    /** After a pair's {@code ;} one white space character is skipped, as Python's {@code \\s} reads white space. */
    @Test
    void theSpaceAfterAPairIsAnyThatPythonCallsWhiteSpace() {
        for (String space : new String[] {" ", "\t", "\u000B", "\u001C", "\u0085", "\u00A0", "\u2007", "\u3000"}) {
            assertEquals(Map.of("a", "1", "b", "2"), CookieParser.parse("a=1;" + space + "b=2"), "after " + (int) space.charAt(0));
        }
        assertEquals(Map.of("a", "1", "\u200Bb", "2"), CookieParser.parse("a=1;\u200Bb=2"), "a zero-width space is no white space");
    }

    @Test
    void pairsWithOrWithoutSpacesAndTheHeaderBackAgain() {
        Map<String, String> cookies = CookieParser.parse("authenticated=true;privacy=10");
        assertEquals(Map.of("authenticated", "true", "privacy", "10"), cookies);
        Map<String, String> ordered = new LinkedHashMap<>();
        ordered.put("a", "1");
        ordered.put("b", "2");
        assertEquals("a=1; b=2", CookieParser.header(ordered));
        assertEquals(Map.of(), CookieParser.parse("no pairs here"));
    }
}
