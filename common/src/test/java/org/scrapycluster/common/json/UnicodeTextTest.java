package org.scrapycluster.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Strings from JSON that UTF-8 holds, and those where half of a surrogate pair would become {@code ?}. */
class UnicodeTextTest {

    @Test
    void textWithWholePairsIsUnicodeText() {
        for (String text : new String[] {"", "link", "caf\u00e9", "\ud83d\ude00", "a\ud83d\ude00b\ud83d\ude00"}) {
            assertEquals(Optional.empty(), UnicodeText.whyNot(text), text);
            assertEquals(text, new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8), "UTF-8 holds " + text);
        }
    }

    @Test
    void halfOfAPairIsNamedWithWhereItIs() {
        assertEquals(Optional.of("\\ud800 at character 1 is half of a surrogate pair"), UnicodeText.whyNot("\ud800"));
        assertEquals(Optional.of("\\udc00 at character 1 is half of a surrogate pair"), UnicodeText.whyNot("\udc00x"));
        assertEquals(Optional.of("\\ud83d at character 3 is half of a surrogate pair"), UnicodeText.whyNot("ab\ud83d"));
        assertEquals(Optional.of("\\udc00 at character 2 is half of a surrogate pair"), UnicodeText.whyNot("a\udc00\ud800"),
                "a low half before a high one is no pair");
        assertEquals(Optional.of("\\ud800 at character 3 is half of a surrogate pair"), UnicodeText.whyNot("\ud83d\ude00\ud800x"));
    }

    @Test
    void everyLoneHalfIsRepairedAndWholePairsAreKept() {
        assertEquals("\uFFFDx\uFFFD\ud83d\ude00\uFFFD", UnicodeText.repaired("\udc00x\ud800\ud83d\ude00\ud83d"));
        assertEquals("\uFFFD\uFFFD", UnicodeText.repaired("\udc00\ud800"), "a low half before a high one is no pair");
        String whole = "caf\u00e9 \ud83d\ude00";
        assertSame(whole, UnicodeText.repaired(whole));
    }
}
