package org.scrapycluster.common.logging;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * JSON's usual escapes, and {@code \u0085}, {@code \u2028} and {@code \u2029} escaped as well: JSON takes them raw in
 * a string, but many readers of a log (Python's {@code splitlines}, editors) break a line at them, so that a logged
 * value from outside could otherwise start a line that looks like a record of its own. Escaped, the value reads back
 * the same.
 */
final class LineSafeEscapes extends CharacterEscapes {

    private static final long serialVersionUID = 1L;

    private static final int[] ASCII = standardAsciiEscapesForJSON();
    private static final SerializedString NEXT_LINE = new SerializedString("\\u0085");
    private static final SerializedString LINE_SEPARATOR = new SerializedString("\\u2028");
    private static final SerializedString PARAGRAPH_SEPARATOR = new SerializedString("\\u2029");

    @Override
    public int[] getEscapeCodesForAscii() {
        return ASCII;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        return switch (ch) {
            case 0x85 -> NEXT_LINE;
            case 0x2028 -> LINE_SEPARATOR;
            case 0x2029 -> PARAGRAPH_SEPARATOR;
            default -> null;
        };
    }
}
