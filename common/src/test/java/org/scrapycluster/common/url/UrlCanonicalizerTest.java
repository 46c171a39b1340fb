package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class UrlCanonicalizerTest {

    static List<UrlFixtures.CanonicalCase> cases() {
        return UrlFixtures.canonicalCases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void canonicalFormMatchesTheFixture(UrlFixtures.CanonicalCase c) {
        assertEquals(c.canonical(), UrlCanonicalizer.canonicalize(c.url()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void keepingTheFragmentMatchesTheFixture(UrlFixtures.CanonicalCase c) {
        assertEquals(c.canonicalKeepingFragment(), UrlCanonicalizer.canonicalize(c.url(), true));
    }

    /** Scrapy fingerprints the URL of a Request, which it has already made safe: that must not change the result. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void escapingFirstChangesNothing(UrlFixtures.CanonicalCase c) {
        assertEquals(c.canonical(), UrlCanonicalizer.canonicalize(UrlEscaper.escape(c.url())));
    }

    /** The link extractor takes the canonical URL from the one that keeps the fragment, and uses it as its own key. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theCanonicalFormIsTheOneWithTheFragmentUpToItAndIsItsOwnCanonicalForm(UrlFixtures.CanonicalCase c) {
        assertEquals(c.canonical(), UrlCanonicalizer.withoutFragment(UrlCanonicalizer.canonicalize(c.url(), true)));
        assertEquals(c.canonical(), UrlCanonicalizer.canonicalize(c.canonical(), true));
    }

    @Test
    void unbalancedIpv6BracketIsRefused() {
        assertThrows(InvalidUrlException.class, () -> UrlCanonicalizer.canonicalize("http://[::1/x"));
        assertThrows(InvalidUrlException.class, () -> UrlCanonicalizer.canonicalize("http://::1]/x"));
    }

    @Test
    void relativeAndSchemelessInputIsCanonicalisedAsAPath() {
        assertEquals("www.example.com/a%20b", UrlCanonicalizer.canonicalize("www.example.com/a b"));
        assertEquals("/", UrlCanonicalizer.canonicalize(""));
    }
}
