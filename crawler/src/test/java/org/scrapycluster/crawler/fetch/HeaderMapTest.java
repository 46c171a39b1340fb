package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class HeaderMapTest {

    private final HeaderMap headers = HeaderMap.of("content-type", "text/html", "Set-Cookie", "a=1",
            "set-cookie", "b=2", "X-UA-Compatible", "IE=edge", "p3p", "CP=x", "ETag", "\"1\"");

    @Test
    void looksUpCaseInsensitivelyKeepingOrder() {
        assertEquals(List.of("a=1", "b=2"), headers.all("SET-COOKIE"));
        assertEquals("a=1", headers.first("set-cookie"));
        assertEquals("b=2", headers.last("Set-Cookie"));
        assertNull(headers.first("Location"));
        assertEquals(6, headers.size());
    }

    @Test
    void groupsAsFirstSpelled() {
        assertEquals(Map.of("content-type", List.of("text/html"), "Set-Cookie", List.of("a=1", "b=2"),
                "X-UA-Compatible", List.of("IE=edge"), "p3p", List.of("CP=x"), "ETag", List.of("\"1\"")), headers.asMap());
        assertEquals(List.of("content-type", "Set-Cookie", "X-UA-Compatible", "p3p", "ETag"),
                List.copyOf(headers.asMap().keySet()));
    }

    @Test
    void scrapyTitleCasesNames() {
        assertEquals(List.of("Content-Type", "Set-Cookie", "X-Ua-Compatible", "P3P", "Etag"),
                List.copyOf(headers.toScrapyMap().keySet()));
        assertEquals(List.of("a=1", "b=2"), headers.toScrapyMap().get("Set-Cookie"));
    }

    @Test
    void replacesAndRemoves() {
        HeaderMap replaced = headers.with("SET-COOKIE", "c=3");
        assertEquals(List.of("c=3"), replaced.all("set-cookie"));
        assertEquals("SET-COOKIE", replaced.entries().get(1).getKey(), "takes the place of the first");
        assertEquals(List.of("a=1"), headers.withoutLast("set-cookie").all("set-cookie"));
        assertEquals(headers, headers.withoutLast("Location"));
        assertEquals("v", HeaderMap.empty().with("X", "v").first("x"));
    }

    @Test
    void refusesHalfPairs() {
        assertThrows(IllegalArgumentException.class, () -> HeaderMap.of("name"));
        assertThrows(IllegalArgumentException.class, () -> HeaderMap.builder().add("", "v"));
    }
}
