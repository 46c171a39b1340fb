package org.scrapycluster.common.json;

import java.util.Optional;

/**
 * Whether a string read from JSON (or decoded from character references) is Unicode text, and the text repaired. JSON can escape half of a surrogate pair on its own
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
                : Optional.of(String.format("\\u%04x at character %d is half of a surrogate pair", (int) text.charAt(at), at + 1));
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
