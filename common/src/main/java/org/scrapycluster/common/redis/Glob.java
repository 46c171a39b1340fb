package org.scrapycluster.common.redis;

import java.util.regex.Pattern;

/**
 * A Redis glob pattern ({@code SCAN MATCH} / {@code KEYS} syntax: {@code *}, {@code ?},
 * {@code [abc]}, {@code [^a]}, {@code [a-z]}, {@code \x}) matched in Java: to sort the keys of one
 * pass over the keyspace by several patterns, and to route a signalled job key to the plugin whose
 * pattern a scan would have found it with.
 */
public final class Glob {

    private final String glob;
    private final Pattern regex;

    private Glob(String glob, Pattern regex) {
        this.glob = glob;
        this.regex = regex;
    }

    /**
     * Compiles {@code glob}.
     *
     * @throws IllegalArgumentException when a {@code [} is never closed
     */
    public static Glob compile(String glob) {
        StringBuilder regex = new StringBuilder(glob.length() + 8);
        int i = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '\\' -> {
                    if (i + 1 < glob.length()) {
                        i++;
                    }
                    regex.append(Pattern.quote(String.valueOf(glob.charAt(i))));
                }
                case '[' -> i = characterClass(glob, i, regex);
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
            i++;
        }
        return new Glob(glob, Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    /** Whether {@code key} matches the whole pattern. */
    public boolean matches(String key) {
        return regex.matcher(key).matches();
    }

    @Override
    public String toString() {
        return glob;
    }

    /** Appends the class starting at {@code open} ({@code [}) and returns the index of its {@code ]}. */
    private static int characterClass(String glob, int open, StringBuilder regex) {
        int i = open + 1;
        regex.append('[');
        if (i < glob.length() && glob.charAt(i) == '^') {
            regex.append('^');
            i++;
        }
        for (; i < glob.length() && glob.charAt(i) != ']'; i++) {
            char c = glob.charAt(i);
            if (c == '-' && i + 1 < glob.length() && glob.charAt(i + 1) != ']' && regex.charAt(regex.length() - 1) != '[') {
                regex.append('-');
            } else {
                if (c == '\\' && i + 1 < glob.length()) {
                    c = glob.charAt(++i);
                }
                regex.append(Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\" + c);
            }
        }
        if (i >= glob.length()) {
            throw new IllegalArgumentException("the glob " + glob + " has a [ without ]");
        }
        regex.append(']');
        return i;
    }
}
