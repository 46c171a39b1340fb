package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

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

    static List<UrlFixtures.CanonicalCase> writtenCases() {
        return UrlFixtures.writtenCanonicalCases();
    }

    /** Each behaviour written down on its own leaves a form that a second pass keeps. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("writtenCases")
    void aCanonicalFormIsItsOwnCanonicalForm(UrlFixtures.CanonicalCase c) {
        assertEquals(c.canonical(), UrlCanonicalizer.canonicalize(c.canonical(), true));
    }

    /**
     * Not every canonical form is its own, in w3lib 1.18 as here: a path's {@code %3B} decodes to a {@code ;} that a
     * second pass reads as the start of parameters, and {@code %25} before two hex digits to an escape that a second
     * pass upper-cases. A link is canonicalised once and its request's fingerprint once more, in Scrapy as here, so
     * both passes must be w3lib's (answers of w3lib 1.18).
     */
    @Test
    void aSecondPassChangesWhatW3libsSecondPassChanges() {
        assertEquals("http://example.com/a;", UrlCanonicalizer.canonicalize("http://example.com/a%3B"));
        assertEquals("http://example.com/a", UrlCanonicalizer.canonicalize("http://example.com/a;"));
        assertEquals("http://example.com/a%bbc;x", UrlCanonicalizer.canonicalize("http://example.com/a%25bbc%3Bx"));
        assertEquals("http://example.com/a%BBc;x", UrlCanonicalizer.canonicalize("http://example.com/a%bbc;x"));
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

    /** A URL taken as its own canonical form without being split is one that splitting would give back. */
    @Test
    void aPlainCanonicalUrlIsItsOwnCanonicalForm() {
        List<String> urls = new ArrayList<>();
        for (UrlFixtures.CanonicalCase c : cases()) {
            urls.add(c.url());
            urls.add(c.canonical());
        }
        Random random = new Random(3);
        String[] starts = {"http://", "https://", "HTTP://", "ftp://", "http:/", "http://user@"};
        String hostAlphabet = "ab9.-:Z_[]";
        String pathAlphabet = "az09/._-~!$&'()*+,=:@%;?# \u00e9[]|^`{}\"<>";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder url = new StringBuilder(starts[random.nextInt(starts.length)]);
            for (int k = random.nextInt(8); k >= 0; k--) {
                url.append(hostAlphabet.charAt(random.nextInt(random.nextInt(4) == 0 ? hostAlphabet.length() : 5)));
            }
            if (random.nextInt(4) > 0) {
                url.append('/');
            }
            for (int k = random.nextInt(12); k > 0; k--) {
                url.append(pathAlphabet.charAt(random.nextInt(random.nextInt(3) == 0 ? pathAlphabet.length() : 10)));
            }
            urls.add(url.toString());
        }
        int plain = 0;
        for (String url : urls) {
            if (UrlCanonicalizer.isPlainCanonical(url)) {
                plain++;
                assertEquals(url, UrlCanonicalizer.canonicalizeParts(url, false), url);
                assertEquals(url, UrlCanonicalizer.canonicalizeParts(url, true), url);
                assertEquals(UrlParts.parse(url).netloc(), UrlCanonicalizer.plainNetloc(url), url);
            }
        }
        assertTrue(plain > 1_000, "plain URLs among those tried: " + plain);
        assertTrue(UrlCanonicalizer.isPlainCanonical("http://127.0.0.5:8080/p/17"));
        assertFalse(UrlCanonicalizer.isPlainCanonical("http://example.com"));
        assertFalse(UrlCanonicalizer.isPlainCanonical("http://example.com:/x"));
    }
}
