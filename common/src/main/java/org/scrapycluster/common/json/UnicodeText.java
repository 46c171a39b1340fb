package org.scrapycluster.common.json;

import java.util.Optional;

/**
 * Whether a string read from JSON is Unicode text. JSON can escape half of a surrogate pair on its own
 * ({@code "\ud800"}), which no UTF-8 holds: written to Redis or Kafka it becomes {@code ?}, so an id holding
 * one names the keys of another id (docs/api.md, "Rules every request follows").
 */
public final class UnicodeText {

    private UnicodeText() {
    }

    /** Why {@code text} is not Unicode text (its first half of a surrogate pair standing alone, and where), or empty when it is. */
    public static Optional<String> whyNot(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of(String.format("\\u%04x at character %d is half of a surrogate pair", (int) c, i + 1));
            }
        }
        return Optional.empty();
    }
}
