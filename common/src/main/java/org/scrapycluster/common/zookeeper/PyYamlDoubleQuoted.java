package org.scrapycluster.common.zookeeper;

import java.util.Locale;
import java.util.Map;

/**
 * A double-quoted scalar as PyYAML's emitter writes it with {@code allow_unicode} off, the original's setting: every
 * character outside printable ASCII escaped, hex in upper case ({@code \xE9}, {@code \u4E2D}, {@code \U0001F600}),
 * and a long text folded at the first place past the line width where PyYAML folds it. SnakeYAML's emitter folds by
 * UTF-16 index, so around a character beyond U+FFFF it may fold one character earlier; and it folds at the column it
 * wrote, which {@link PyYamlWriter} changes where it unquotes a key SnakeYAML quoted.
 */
final class PyYamlDoubleQuoted {

    /** PyYAML's {@code best_width}. */
    private static final int WIDTH = 80;
    private static final Map<Integer, Character> SHORT_ESCAPES = Map.ofEntries(
            Map.entry(0x00, '0'), Map.entry(0x07, 'a'), Map.entry(0x08, 'b'), Map.entry(0x09, 't'), Map.entry(0x0A, 'n'),
            Map.entry(0x0B, 'v'), Map.entry(0x0C, 'f'), Map.entry(0x0D, 'r'), Map.entry(0x1B, 'e'), Map.entry(0x22, '"'),
            Map.entry(0x5C, '\\'), Map.entry(0x85, 'N'), Map.entry(0xA0, '_'), Map.entry(0x2028, 'L'), Map.entry(0x2029, 'P'));

    private final StringBuilder out = new StringBuilder();
    private int column;

    private PyYamlDoubleQuoted(int column) {
        this.column = column;
    }

    /**
     * {@code text} written from {@code column} as a double-quoted scalar, folded with continuation lines at
     * {@code indent} when {@code split} (a simple key is never folded).
     */
    static String write(String text, int column, int indent, boolean split) {
        return new PyYamlDoubleQuoted(column).quoted(text.codePoints().toArray(), indent, split);
    }

    private String quoted(int[] text, int indent, boolean split) {
        append("\"");
        int start = 0;
        for (int end = 0; end <= text.length; end++) {
            Integer ch = end < text.length ? text[end] : null;
            if (ch == null || ch == '"' || ch == '\\' || ch == 0x85 || ch == 0x2028 || ch == 0x2029 || ch == 0xFEFF
                    || ch < 0x20 || ch > 0x7E) {
                if (start < end) {
                    append(text, start, end);
                    start = end;
                }
                if (ch != null) {
                    append(escape(ch));
                    start = end + 1;
                }
            }
            if (0 < end && end < text.length - 1 && (ch != null && ch == ' ' || start >= end)
                    && column + (end - start) > WIDTH && split) {
                append(text, start, end);
                append("\\");
                start = Math.max(start, end);
                out.append('\n').append(" ".repeat(indent));
                column = indent;
                if (text[start] == ' ') {
                    append("\\");
                }
            }
        }
        append("\"");
        return out.toString();
    }

    private static String escape(int ch) {
        Character replacement = SHORT_ESCAPES.get(ch);
        if (replacement != null) {
            return "\\" + replacement;
        }
        String format = ch <= 0xFF ? "\\x%02X" : ch <= 0xFFFF ? "\\u%04X" : "\\U%08X";
        return String.format(Locale.ROOT, format, ch);
    }

    private void append(int[] text, int start, int end) {
        if (end <= start) {
            return;
        }
        for (int i = start; i < end; i++) {
            out.appendCodePoint(text[i]);
        }
        column += end - start;
    }

    private void append(String written) {
        out.append(written);
        column += written.length();
    }
}
