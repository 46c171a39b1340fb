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
