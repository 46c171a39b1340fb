package org.scrapycluster.crawler.links;

/**
 * Python's {@code str.strip()}: removes from both ends every character {@code str.isspace()} accepts; and
 * {@code str.strip(chars)}, which removes those characters instead.
 */
final class PythonStrip {

    private interface CharTest {
        boolean test(char c);
    }

    private PythonStrip() {
    }

    /** {@code value.strip()}. */
    static String whitespace(String value) {
        return strip(value, PythonStrip::isSpace);
    }

    /** {@code value.strip(chars)}. */
    static String chars(String value, String chars) {
        return strip(value, c -> chars.indexOf(c) >= 0);
    }

    private static String strip(String value, CharTest removed) {
        int start = 0;
        int end = value.length();
        while (start < end && removed.test(value.charAt(start))) {
            start++;
        }
        while (end > start && removed.test(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(start, end);
    }

    private static boolean isSpace(char c) {
        return c >= '\t' && c <= '\r' || c >= 0x1C && c <= ' ' || c == 0x85 || c == 0xA0 || c == 0x1680
                || c >= 0x2000 && c <= 0x200A || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
                || c == 0x3000;
    }
}
