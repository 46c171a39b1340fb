package org.scrapycluster.crawler.links;

/** Python's {@code str.strip()}: removes from both ends every character {@code str.isspace()} accepts. */
final class PythonWhitespace {

    private PythonWhitespace() {
    }

    static String strip(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isSpace(value.charAt(start))) {
            start++;
        }
        while (end > start && isSpace(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(start, end);
    }

    static boolean isSpace(char c) {
        return c >= '\t' && c <= '\r' || c >= 0x1C && c <= ' ' || c == 0x85 || c == 0xA0 || c == 0x1680
                || c >= 0x2000 && c <= 0x200A || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
                || c == 0x3000;
    }
}
