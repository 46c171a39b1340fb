package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class UrlResolverTest {

    static List<UrlFixtures.JoinCase> cases() {
        return UrlFixtures.joinCases();
    }

    /** The fixture holds RFC 3986 §5.4 examples and crawler cases, resolved by Python's urljoin. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resolvesAsPythonUrljoin(UrlFixtures.JoinCase c) {
        assertEquals(c.resolved(), UrlResolver.resolve(c.base(), c.ref()));
    }

    @Test
    void emptyBaseGivesTheReference() {
        assertEquals("g/h", UrlResolver.resolve("", "g/h"));
    }

    @Test
    void referenceIsCleanedOfBreaksAndSurroundingSpace() {
        assertEquals("http://a/b/gh", UrlResolver.resolve("http://a/b/c", "  g\nh \t"));
    }

    @Test
    void brokenReferenceIsRefused() {
        assertThrows(InvalidUrlException.class, () -> UrlResolver.resolve("http://a/b", "http://[::1/x"));
    }

    /** As urljoin: a base is only split for a reference that is not empty. */
    @Test
    void brokenBaseIsRefusedOnlyWhenAReferenceNeedsIt() {
        assertEquals("http://[::1/x", UrlResolver.resolve("http://[::1/x", " "));
        assertThrows(InvalidUrlException.class, () -> UrlResolver.resolve("http://[::1/x", "g"));
        UrlResolver.Base broken = UrlResolver.against("http://[::1/x");
        assertEquals("http://[::1/x", broken.resolve(""));
        assertThrows(InvalidUrlException.class, () -> broken.resolve("g"));
    }
}
