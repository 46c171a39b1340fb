package org.scrapycluster.common.json;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a string read from JSON (or decoded from character references) is Unicode text, the text repaired, and the
 * text made visible for a message. JSON can escape half of a surrogate pair on its own
 * ({@code "\ud800"}), which no UTF-8 holds: written to Redis or Kafka it becomes {@code ?}, so an id holding
 * one names the keys of another id (docs/api.md, "Rules every request follows").
 */
public final class UnicodeText {

    private UnicodeText() {
    }

    /** Why {@code text} is not Unicode text (its first half of a surrogate pair standing alone, and where), or empty when it is. */
    public static Optional<String> whyNot(String text) {
        int at = loneSurrogate(text, 0);
        return at < 0 ? Optional.empty()
                : Optional.of(String.format(Locale.ROOT, "\\u%04x at character %d is half of a surrogate pair", (int) text.charAt(at),
                        at + 1));
    }

    /** {@code text} with every half of a surrogate pair standing alone replaced by U+FFFD; {@code text} itself when it has none. */
    public static String repaired(String text) {
        int at = loneSurrogate(text, 0);
        if (at < 0) {
            return text;
        }
        StringBuilder repaired = new StringBuilder(text);
        for (; at >= 0; at = loneSurrogate(text, at + 1)) {
            repaired.setCharAt(at, '\uFFFD');
        }
        return repaired.toString();
    }

    /**
     * {@code text} with the characters that show as nothing, or as something else, written {@code \\u202e}: controls,
     * format characters (a right-to-left override turns the text around it), line and paragraph separators, and halves
     * of surrogate pairs standing alone; for a message that quotes text from outside.
     */
    public static String visible(String text) {
        StringBuilder shown = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE) {
                shown.append(String.format("\\u%04x", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.toString();
    }

    /** Where the first half of a surrogate pair standing alone is in {@code text}, from {@code from} on, or -1. */
    private static int loneSurrogate(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
