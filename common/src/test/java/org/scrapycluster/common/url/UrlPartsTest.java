package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class UrlPartsTest {

    @Test
    void splitsLikeUrlparse() {
        assertEquals(new UrlParts("http", "user:pw@Host:81", "/a/b", "p;q", "x=1", "f"),
                UrlParts.parse("HTTP://user:pw@Host:81/a/b;p;q?x=1#f"));
        assertEquals(new UrlParts("http", "host", "/a;x/b", "", "", ""), UrlParts.parse("http://host/a;x/b"));
        assertEquals(new UrlParts("file", "", "/tmp/a;b", "", "", ""), UrlParts.parse("file:///tmp/a;b"));
        assertEquals(new UrlParts("", "", "localhost:8080", "", "", ""), UrlParts.parse("localhost:8080"));
        assertEquals(new UrlParts("mailto", "", "a@b.c", "", "", ""), UrlParts.parse("mailto:a@b.c"));
    }

    @Test
    void splitKeepsParametersInThePath() {
        assertEquals(new UrlParts("http", "host", "/a;p", "", "q", ""), UrlParts.split("http://host/a;p?q"));
    }

    @Test
    void reassemblesLikeUrlunparse() {
        assertEquals("http://host/a;p?q#f", new UrlParts("http", "host", "/a", "p", "q", "f").toString());
        assertEquals("http://host/;p", new UrlParts("http", "host", "", "p", "", "").toString());
        assertEquals("http:///x", new UrlParts("http", "", "x", "", "", "").toString());
        assertEquals("file:///tmp", new UrlParts("file", "", "/tmp", "", "", "").toString());
        assertEquals("mailto:a@b.c", new UrlParts("mailto", "", "a@b.c", "", "", "").toString());
        assertEquals("http://host", UrlParts.parse("http://host?#").toString());
    }

    @Test
    void withoutFragmentIsUrldefrag() {
        assertEquals("http://host/a?x=1", UrlParts.withoutFragment("http://host/a?x=1#part"));
        assertEquals("http://host/a", UrlParts.withoutFragment("http://host/a?#"), "put back together as urlunparse");
        assertEquals("http://host/a;p", UrlParts.withoutFragment("http://host/a;p#x#y"));
        assertEquals("http://host/a?", UrlParts.withoutFragment("http://host/a?"), "no # leaves the URL as it is");
    }

    @Test
    void hostnameAndPort() {
        UrlParts parts = UrlParts.parse("http://User@WWW.Example.com:8080/");
        assertEquals("www.example.com", parts.hostname());
        assertEquals(8080, parts.port());
        assertEquals(-1, UrlParts.parse("http://example.com/").port());
        assertEquals(-1, UrlParts.parse("http://example.com:/").port());
        UrlParts ipv6 = UrlParts.parse("https://[2001:DB8::1]:8443/x");
        assertEquals("2001:db8::1", ipv6.hostname());
        assertEquals(8443, ipv6.port());
        assertEquals(-1, UrlParts.parse("https://[::1]/").port());
        assertEquals("", UrlParts.parse("file:///tmp").hostname());
    }

    @Test
    void unusablePortIsRefused() {
        assertThrows(InvalidUrlException.class, () -> UrlParts.parse("http://example.com:http/").port());
        assertThrows(InvalidUrlException.class, () -> UrlParts.parse("http://example.com:65536/").port());
        assertThrows(InvalidUrlException.class, () -> UrlParts.parse("http://example.com:-1/").port());
    }

    @Test
    void unbalancedBracketIsRefused() {
        assertThrows(InvalidUrlException.class, () -> UrlParts.parse("http://[::1/"));
    }
}
