package org.scrapycluster.common.url;

import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.util.Arrays;

/**
 * Percent-encoding with the byte-level rules of Python's {@code urllib.parse.quote}, {@code quote_plus}
 * and {@code unquote_to_bytes}, on which w3lib builds its URL functions. Characters outside ASCII are
 * encoded as their UTF-8 bytes, or those of a page's encoding where w3lib is given one; escapes are written in upper case.
 */
final class PercentCodec {

    /**
     * What w3lib 1.18 leaves unescaped in a path, query or fragment: RFC 3986 reserved and unreserved
     * characters, {@code |} and {@code %} (so existing escapes survive as they are).
     */
    static final boolean[] URL_SAFE = table(":/?#[]@!$&'()*+,;=-._~|%");

    /** {@link #URL_SAFE} without {@code #}: a decoded {@code %23} in a path must stay escaped. */
    static final boolean[] PATH_SAFE = without(URL_SAFE, '#');

    /**
     * What {@code urlencode} keeps in query names and values under the original's Python 3.6: letters, digits and
     * {@code _.-} ({@code ~} only since Python 3.7).
     */
    static final boolean[] FORM_SAFE = table("_.-");

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PercentCodec() {
    }

    /** Appends {@code s[from, to)} with every character that is not safe written as escaped UTF-8 bytes. */
    static void quote(CharSequence s, int from, int to, boolean[] safe, StringBuilder out) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                quoteAscii(c, safe, out);
            } else {
                i = quoteNonAscii(s, i, to, out);
            }
        }
    }

    /**
     * Appends {@code s} as Python's {@code quote(s.encode(charset), safe)}: ASCII as {@link #quote} writes it, and each
     * run of other characters as its bytes in {@code charset}, an encoding that writes ASCII as ASCII, escaped unless a
     * byte is a safe ASCII character (a second byte of Shift_JIS or Big5 often is) other than {@code %} and {@code #},
     * which a stateful encoding such as ISO-2022-JP writes too and which would break the URL. A character the charset
     * cannot encode, where Python fails, is written as a browser writes it in the query of a page in that encoding: the
     * escaped bytes of its decimal character reference ({@code é} in Shift_JIS as {@code %26%23233%3B}).
     */
    static void quote(CharSequence s, boolean[] safe, Charset charset, StringBuilder out) {
        CharsetEncoder encoder = charset.newEncoder();
        int run = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                run = appendEncoded(s, run, i, safe, charset, out);
                quoteAscii(c, safe, out);
                continue;
            }
            int cp = codePointAt(s, i, s.length());
            int width = cp >= 0x10000 ? 2 : 1;
            if (encoder.canEncode(s.subSequence(i, i + width))) {
                run = run < 0 ? i : run;
            } else {
                run = appendEncoded(s, run, i, safe, charset, out);
                out.append("%26%23").append(cp).append("%3B");
            }
            i += width - 1;
        }
        appendEncoded(s, run, s.length(), safe, charset, out);
    }

    /** As {@code quote_plus(bytes, safe='')}: spaces become {@code +}, everything but {@link #FORM_SAFE} is escaped. */
    static void quotePlus(byte[] bytes, StringBuilder out) {
        for (byte value : bytes) {
            int b = value & 0xFF;
            if (b == ' ') {
                out.append('+');
            } else if (b < 0x80 && FORM_SAFE[b]) {
                out.append((char) b);
            } else {
                appendEscape(b, out);
            }
        }
    }

    /**
     * The bytes of a query name or value as {@code parse_qsl} sees them after w3lib has quoted the query:
     * {@code +} is a space, a valid escape is its byte, anything else its UTF-8 bytes.
     */
    static byte[] formDecode(CharSequence s, int from, int to) {
        ByteSink sink = new ByteSink(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '+') {
                sink.add(' ');
            } else if (c == '%' && isEscape(s, i, to)) {
                sink.add(hexValue(s.charAt(i + 1)) << 4 | hexValue(s.charAt(i + 2)));
                i += 2;
            } else if (c < 0x80) {
                sink.add(c);
            } else {
                i = sink.addUtf8(s, i, to);
            }
        }
        return sink.toArray();
    }

    /** True when {@code s[i]} is {@code %} followed by two hex digits before {@code to}. */
    static boolean isEscape(CharSequence s, int i, int to) {
        return i + 2 < to && hexValue(s.charAt(i + 1)) >= 0 && hexValue(s.charAt(i + 2)) >= 0;
    }

    /** The value of a hex digit, or -1. */
    static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    private static void quoteAscii(char c, boolean[] safe, StringBuilder out) {
        if (safe[c]) {
            out.append(c);
        } else {
            appendEscape(c, out);
        }
    }

    /**
     * Appends the bytes of {@code s[run, end)}, when {@code run} is not -1, in {@code charset}, which can encode all of
     * them, escaped as {@link #quote(CharSequence, boolean[], Charset, StringBuilder)} escapes them; returns -1, no run.
     * The run is encoded followed by an ASCII letter, whose byte is then left out, so that a stateful encoding shifts
     * back to ASCII for the text after it (the JDK's ISO-2022-KR encoder writes no shift-in at the end of its input).
     */
    private static int appendEncoded(CharSequence s, int run, int end, boolean[] safe, Charset charset, StringBuilder out) {
        if (run < 0) {
            return -1;
        }
        byte[] bytes = (s.subSequence(run, end) + "A").getBytes(charset);
        for (int i = 0; i < bytes.length - 1; i++) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80 && safe[b] && b != '%' && b != '#') {
                out.append((char) b);
            } else {
                appendEscape(b, out);
            }
        }
        return -1;
    }

    static void appendEscape(int b, StringBuilder out) {
        out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xF]);
    }

    /** Escapes the UTF-8 bytes of the code point starting at {@code s[i]}; returns the index of its last char. */
    private static int quoteNonAscii(CharSequence s, int i, int to, StringBuilder out) {
        int cp = codePointAt(s, i, to);
        byte[] utf8 = new byte[4];
        int n = encodeUtf8(cp, utf8);
        for (int k = 0; k < n; k++) {
            appendEscape(utf8[k] & 0xFF, out);
        }
        return cp >= 0x10000 ? i + 1 : i;
    }

    /** The code point starting at {@code s[i]}; a lone surrogate reads as U+FFFD. */
    static int codePointAt(CharSequence s, int i, int to) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
            return Character.toCodePoint(c, s.charAt(i + 1));
        }
        return Character.isSurrogate(c) ? 0xFFFD : c;
    }

    /** Writes the UTF-8 bytes of {@code cp} (not ASCII) to {@code out}; returns how many. */
    static int encodeUtf8(int cp, byte[] out) {
        if (cp < 0x800) {
            out[0] = (byte) (0xC0 | cp >> 6);
            out[1] = (byte) (0x80 | cp & 0x3F);
            return 2;
        }
        if (cp < 0x10000) {
            out[0] = (byte) (0xE0 | cp >> 12);
            out[1] = (byte) (0x80 | cp >> 6 & 0x3F);
            out[2] = (byte) (0x80 | cp & 0x3F);
            return 3;
        }
        out[0] = (byte) (0xF0 | cp >> 18);
        out[1] = (byte) (0x80 | cp >> 12 & 0x3F);
        out[2] = (byte) (0x80 | cp >> 6 & 0x3F);
        out[3] = (byte) (0x80 | cp & 0x3F);
        return 4;
    }

    private static boolean[] table(String extra) {
        boolean[] safe = new boolean[128];
        for (char c = 'A'; c <= 'Z'; c++) {
            safe[c] = true;
            safe[Character.toLowerCase(c)] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            safe[c] = true;
        }
        for (char c : extra.toCharArray()) {
            safe[c] = true;
        }
        return safe;
    }

    private static boolean[] without(boolean[] table, char c) {
        boolean[] copy = Arrays.copyOf(table, table.length);
        copy[c] = false;
        return copy;
    }

    /** A growable byte buffer for decoded escapes. */
    private static final class ByteSink {
        private byte[] bytes;
        private int size;

        ByteSink(int capacity) {
            bytes = new byte[Math.max(capacity, 4)];
        }

        void add(int b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
            }
            bytes[size++] = (byte) b;
        }

        /** Adds the UTF-8 bytes of the code point starting at {@code s[i]}; returns the index of its last char. */
        int addUtf8(CharSequence s, int i, int to) {
            int cp = codePointAt(s, i, to);
            byte[] utf8 = new byte[4];
            int n = encodeUtf8(cp, utf8);
            for (int k = 0; k < n; k++) {
                add(utf8[k]);
            }
            return cp >= 0x10000 ? i + 1 : i;
        }

        byte[] toArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
