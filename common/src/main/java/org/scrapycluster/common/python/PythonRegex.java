package org.scrapycluster.common.python;

/**
 * Python's {@code \s} and {@code \w} on text, spelt out for Java's and RE2/J's regular expressions, whose own are ASCII
 * only. A pattern the original ran with Python's {@code re} on a {@code str} uses these where it had {@code \s} or
 * {@code \w}, so that it matches what the original matched: a no-break space after a {@code ;} or inside a
 * {@code <meta>} tag is white space to Python. Each works in both engines, inside a character class or alone.
 */
public final class PythonRegex {

    /**
     * The characters of Python's {@code \s}, without brackets: ASCII white space and U+000B, the separators U+001C to
     * U+001F, and Unicode's spaces ({@code str.isspace()}).
     */
    public static final String SPACE_CHARS = "\\t\\n\\x0b\\f\\r\\x1c-\\x20\\x85\\xa0\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}"
            + "\\x{202f}\\x{205f}\\x{3000}";

    /** Python's {@code \s}: one character of {@link #SPACE_CHARS}. */
    public static final String SPACE = "[" + SPACE_CHARS + "]";

    /** The characters of Python's {@code \w}, without brackets: letters and numbers of every script, and {@code _}. */
    public static final String WORD_CHARS = "\\p{L}\\p{N}_";

    private PythonRegex() {
    }
}
