package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RequestFingerprintTest {

    static List<UrlFixtures.CanonicalCase> cases() {
        return UrlFixtures.canonicalCases();
    }

    /** The fixture's fingerprints were computed with Python's hashlib over method, expected canonical URL and body. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fingerprintMatchesTheFixture(UrlFixtures.CanonicalCase c) {
        assertEquals(c.fingerprint(), RequestFingerprint.of(c.method(), c.url(), c.body().getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aDigestsLeading64BitsAreWhatTheFirst16HexDigitsSpell() {
        for (UrlFixtures.CanonicalCase c : cases()) {
            Fingerprint fingerprint = RequestFingerprint.digest(c.method(), c.url(), c.body().getBytes(StandardCharsets.UTF_8));
            assertEquals(c.fingerprint(), fingerprint.hex());
            assertEquals(Long.parseUnsignedLong(c.fingerprint().substring(0, 16), 16), fingerprint.leading64(), c.url());
        }
    }

    @Test
    void getWithoutBodyIsTheDefault() {
        String url = "http://www.example.com/do?c=1&b=2&a=3#top";
        assertEquals(RequestFingerprint.of("GET", url, null), RequestFingerprint.of(url));
        assertEquals(RequestFingerprint.of("GET", url, new byte[0]), RequestFingerprint.of(url));
    }

    @Test
    void urlsThatCanonicaliseAlikeShareAFingerprint() {
        assertEquals(RequestFingerprint.of("http://Example.com/a?b=2&a=1#x"), RequestFingerprint.of("http://example.com/a?a=1&b=2"));
        assertNotEquals(RequestFingerprint.of("http://example.com/a"), RequestFingerprint.of("http://example.com/A"));
        assertNotEquals(RequestFingerprint.of("http://example.com/a"), RequestFingerprint.of("https://example.com/a"));
    }
}
