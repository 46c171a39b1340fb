package org.scrapycluster.common.logging;

/**
 * What a log line shows of one long text: its first {@value #MAX_CHARACTERS} characters and its length. A request's URL,
 * its {@code attrs} or a refused record's JSON come from whoever sends them; cut, a caller cannot make a service write a
 * megabyte a line (docs/operations.md, "Logs").
 */
public final class ShownText {

    /** The most of one text a log line shows. */
    public static final int MAX_CHARACTERS = 2_000;

    private ShownText() {
    }

    /** {@code text} itself, or its first {@link #MAX_CHARACTERS} characters and how many it has in all. */
    public static String cut(String text) {
        if (text.length() <= MAX_CHARACTERS) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_CHARACTERS - 1)) ? MAX_CHARACTERS - 1 : MAX_CHARACTERS;
        return text.substring(0, end) + "… (" + text.length() + " characters in all)";
    }
}
