package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The expected texts are PyYAML 3.12's, written as {@code yaml.safe_dump} writes a list item (from column 2, indent 2). */
class PyYamlDoubleQuotedTest {

    @Test
    void escapesAsPyYamlDoes() {
        String text = "caf\u00e9 \u4e2d \uD83D\uDE00 \u0000\u0007\u001b \u00a0 \u2028 \u0085 \ufeff \u007f \"q\" \\ \t";
        assertEquals("\"caf\\xE9 \\u4E2D \\U0001F600 \\0\\a\\e \\_ \\L \\N \\uFEFF \\x7F \\\"q\\\" \\\\ \\t\"",
                PyYamlDoubleQuoted.write(text, 2, 2, true));
    }

    @Test
    void foldsPastTheWidthAtASpaceAndEscapesTheSpaceThatStartsALine() {
        String text = "x".repeat(70) + " \u00e9\u00e9 " + "y".repeat(20) + "  two spaces" + " z".repeat(30);
        assertEquals("\"" + "x".repeat(70) + " \\xE9\\xE9\\\n  \\ " + "y".repeat(20) + "  two spaces" + " z".repeat(23)
                + "\\\n  \\" + " z".repeat(7) + "\"", PyYamlDoubleQuoted.write(text, 2, 2, true));
    }

    /** SnakeYAML, which steps by UTF-16 unit, folds after the emoji here, where PyYAML does not test the first character. */
    @Test
    void aCharacterBeyondTheBasicPlaneFirstIsNotAPlaceToFold() {
        String text = "\uD83D\uDE00\"[.a";
        assertEquals("\"\\U0001F600\\\"\\\n  [.a\"", PyYamlDoubleQuoted.write(text, 75, 2, true));
        assertEquals("\"\\U0001F600\\\"[.a\"", PyYamlDoubleQuoted.write(text, 75, 2, false), "a simple key is never folded");
    }
}
