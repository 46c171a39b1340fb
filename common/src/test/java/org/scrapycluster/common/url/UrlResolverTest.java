package org.scrapycluster.common.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

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

    /** The shortcuts for plain absolute URLs and plain paths from the root give what resolving part by part gives. */
    @Test
    void aPlainReferenceResolvesAsItWouldPartByPart() {
        List<String> bases = List.of("http://a/b/c/d;p?q", "https://127.0.0.5:8080/x/", "http://[::1]:80/", "HTTP://Up.Example/x",
                "http://user@h/", "ftp://h/x", "file:///tmp/x", "http:///no-host", "http:path", "//h/x", "mailto:a@b");
        String[] starts = {"/", "//", "http://", "https://", "HTTP://", "ftp://", "", "./", "../", "?", "#"};
        String alphabet = "az09/._-~!$&'()*+,=:@%;?# \u00e9|^`{}";
        Random random = new Random(5);
        int shortcuts = 0;
        for (int n = 0; n < 20_000; n++) {
            StringBuilder ref = new StringBuilder(starts[random.nextInt(starts.length)]);
            for (int k = random.nextInt(14); k > 0; k--) {
                ref.append(alphabet.charAt(random.nextInt(random.nextInt(3) == 0 ? alphabet.length() : 9)));
            }
            String reference = ref.toString();
            String cleanRef = UrlParts.clean(reference);
            if (UrlCanonicalizer.isPlainCanonical(cleanRef) || UrlResolver.isPlainAbsolutePath(cleanRef)) {
                shortcuts++;
            }
            for (String base : bases) {
                UrlResolver.Base against = UrlResolver.against(base);
                String partByPart;
                try {
                    partByPart = cleanRef.isEmpty() ? base : against.resolveParts(cleanRef);
                } catch (InvalidUrlException e) {
                    assertThrows(InvalidUrlException.class, () -> against.resolve(reference), base + " " + reference);
                    continue;
                }
                assertEquals(partByPart, against.resolve(reference), base + " " + reference);
            }
        }
        assertTrue(shortcuts > 1_000, "references resolved by a shortcut: " + shortcuts);
        assertTrue(UrlResolver.isPlainAbsolutePath("/p/17.html"));
        assertFalse(UrlResolver.isPlainAbsolutePath("/a/../b"));
        assertFalse(UrlResolver.isPlainAbsolutePath("/a/."));
        assertFalse(UrlResolver.isPlainAbsolutePath("//host/a"));
        assertTrue(UrlResolver.isPlainAbsolutePath("/a/.../b"));
    }
}
