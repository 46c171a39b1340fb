package org.scrapycluster.common.keyspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The shape of one family of Redis names, such as {@code crawl:{spider}:{appid}:{crawlid}}: literal
 * text with named holes, filled in order. {@link Keyspace} declares every template once; Java fills
 * them with {@link #fill} and the Lua scripts receive them as {@link #luaExpression() functions}
 * that build the same names, so neither side spells a name of its own.
 */
public final class KeyTemplate {

    private final String name;
    private final String text;
    private final List<String> literals;
    private final List<String> holes;

    private KeyTemplate(String name, String text, List<String> literals, List<String> holes) {
        this.name = name;
        this.text = text;
        this.literals = literals;
        this.holes = holes;
    }

    /**
     * Reads {@code text}, whose holes are written {@code {name}}.
     *
     * @param name the template's name in the Lua scripts' {@code KEYSPACE} table (a Lua identifier)
     * @throws IllegalArgumentException for an unclosed or empty hole
     */
    public static KeyTemplate of(String name, String text) {
        Objects.requireNonNull(name, "name");
        List<String> literals = new ArrayList<>();
        List<String> holes = new ArrayList<>();
        int at = 0;
        while (true) {
            int open = text.indexOf('{', at);
            if (open < 0) {
                literals.add(text.substring(at));
                break;
            }
            int close = text.indexOf('}', open);
            if (close <= open + 1) {
                throw new IllegalArgumentException("an unclosed or empty hole in key template " + text);
            }
            literals.add(text.substring(at, open));
            holes.add(text.substring(open + 1, close));
            at = close + 1;
        }
        return new KeyTemplate(name, text, List.copyOf(literals), List.copyOf(holes));
    }

    /** The template's name in the Lua scripts' {@code KEYSPACE} table. */
    public String name() {
        return name;
    }

    /** The names of the holes, in order. */
    public List<String> holes() {
        return holes;
    }

    /** The literal text before the first hole ({@code stats:crawler:} of {@code stats:crawler:{host}:…}). */
    public String prefix() {
        return literals.get(0);
    }

    /** The literal text after the last hole ({@code :queue} of {@code {spider}:{domain}:queue}). */
    public String suffix() {
        return literals.get(literals.size() - 1);
    }

    /**
     * The name with each hole filled by the value at its position.
     *
     * @throws IllegalArgumentException when the number of values is not the number of holes
     */
    public String fill(String... values) {
        if (values.length != holes.size()) {
            throw new IllegalArgumentException(text + " has " + holes.size() + " holes, got " + values.length + " values");
        }
        StringBuilder filled = new StringBuilder(text.length() + 32);
        for (int i = 0; i < values.length; i++) {
            filled.append(literals.get(i)).append(Objects.requireNonNull(values[i], holes.get(i)));
        }
        return filled.append(literals.get(values.length)).toString();
    }

    /**
     * The glob that matches every name of this template whose leading holes are {@code values}
     * (escaped, so they match literally) and whose remaining holes are anything.
     */
    public String glob(String... values) {
        return glob(true, values);
    }

    /**
     * The glob that matches every name of this template whose leading holes match the globs {@code globs} (taken as
     * globs, not escaped) and whose remaining holes are anything: {@code buckets:stats:crawler:*} of
     * {@code buckets:{window}} and {@code stats:crawler:*}.
     */
    public String globOf(String... globs) {
        return glob(false, globs);
    }

    private String glob(boolean literalValues, String... values) {
        if (values.length > holes.size()) {
            throw new IllegalArgumentException(text + " has " + holes.size() + " holes, got " + values.length + " values");
        }
        StringBuilder glob = new StringBuilder();
        for (int i = 0; i < holes.size(); i++) {
            String value = i >= values.length ? "*" : literalValues ? escapeGlob(values[i]) : values[i];
            glob.append(escapeGlob(literals.get(i))).append(value);
        }
        return glob.append(escapeGlob(literals.get(holes.size()))).toString();
    }

    /**
     * The template as a Lua expression: its name as a string literal when it has no holes, else a
     * function of one argument per hole that concatenates the name ({@code function(v1, v2) return
     * 'crawls:' .. v1 .. ':' .. v2 end}), which costs a script no pattern matching.
     */
    public String luaExpression() {
        if (holes.isEmpty()) {
            return luaString(literals.getFirst());
        }
        StringBuilder parameters = new StringBuilder();
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < holes.size(); i++) {
            parameters.append(i == 0 ? "" : ", ").append('v').append(i + 1);
            if (!literals.get(i).isEmpty()) {
                body.append(luaString(literals.get(i))).append(" .. ");
            }
            body.append('v').append(i + 1).append(i + 1 < holes.size() || !suffix().isEmpty() ? " .. " : "");
        }
        if (!suffix().isEmpty()) {
            body.append(luaString(suffix()));
        }
        return "function(" + parameters + ") return " + body + " end";
    }

    private static String luaString(String text) {
        if (text.indexOf('\'') >= 0 || text.indexOf('\\') >= 0 || text.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a key template's text must not hold quotes, backslashes or line breaks: " + text);
        }
        return "'" + text + "'";
    }

    /** {@code text} with the glob characters {@code * ? [ ] \} escaped, to match it literally. */
    private static String escapeGlob(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
