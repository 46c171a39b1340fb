package org.scrapycluster.common.settings;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.scrapycluster.common.python.PythonFloat;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * One setting as a defaults file declares it: its name, type, default and one-line doc.
 * {@code elementType} is the type of a list's elements (inferred from the default), null for
 * other types. A setting may be null only when its default is null. {@code keepsEmpty}: empty text
 * is an empty string, not null, for a string setting whose empty value means something other than
 * its null default (tag {@code [string, empty kept]}, e.g. {@code REDIS_SENTINEL_PASSWORD}). {@code secret}: the
 * value holds a password or key (tag {@code [string, secret]}, e.g. {@code REDIS_PASSWORD}), so a value that does not
 * fit the type is refused without being quoted.
 */
public record SettingDeclaration(String name, SettingType type, SettingType elementType, Object defaultValue,
        String doc, String file, boolean keepsEmpty, boolean secret) {

    /** A setting whose empty text, where null is allowed, is null, and whose value may be quoted. */
    public SettingDeclaration(String name, SettingType type, SettingType elementType, Object defaultValue, String doc, String file) {
        this(name, type, elementType, defaultValue, doc, file, false, false);
    }

    /** The type as documentation shows it: {@code int}, {@code list of int}, ... */
    public String typeName() {
        return elementType == null ? type.tag() : type.tag() + " of " + elementType.tag();
    }

    /** True when the default is null, which allows null in every layer. */
    public boolean nullable() {
        return defaultValue == null;
    }

    /**
     * Converts a value read from YAML (an override file, or text parsed as YAML) to this
     * setting's type. Text for a scalar is parsed as the environment would be.
     *
     * @throws IllegalArgumentException saying what is wrong with the value
     */
    Object fromYaml(Object value) {
        if (value == null) {
            return requireNullable();
        }
        return switch (type) {
            case LIST -> value instanceof String text ? fromText(text, false) : list(value);
            case MAP -> value instanceof String text ? fromText(text, false) : map(value);
            default -> value instanceof String text ? fromText(text, false) : scalar(type, value);
        };
    }

    /**
     * Reads {@code text}, the value of a setting no defaults file declares (an extension's own, from the environment), as
     * the text of a declared setting of {@code type} is read: a list comma-separated or a YAML flow list, a map a YAML
     * flow map.
     *
     * @throws IllegalArgumentException naming the setting and saying what is wrong with the text
     */
    public static Object readUndeclared(String name, SettingType type, String text) {
        SettingDeclaration undeclared = new SettingDeclaration(name, type, type == SettingType.LIST ? SettingType.STRING : null, "",
                "", "the environment");
        try {
            return undeclared.fromText(text, false);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Converts text (an environment variable or {@code --set} value) to this setting's type.
     * Lists are comma-separated or a YAML flow list ({@code [...]}); maps are a YAML flow map. Empty text is
     * null for a nullable setting, unless it {@link #keepsEmpty() keeps empty text}. A boolean is true, false, 1 or 0
     * (case-insensitive); {@code fromEnvironment}, empty text is false too, as the original's Docker settings read
     * an empty variable. Any other text is refused: the original read it as false, so that {@code yes} or a typo
     * silently turned a protection off.
     *
     * @throws IllegalArgumentException saying what is wrong with the text
     */
    Object fromText(String text, boolean fromEnvironment) {
        String trimmed = text.trim();
        if (trimmed.isEmpty() && nullable() && !keepsEmpty) {
            return null;
        }
        return switch (type) {
            case LIST -> isFlowList(trimmed) ? list(parseYaml(trimmed)) : list(splitCommas(trimmed));
            case MAP -> trimmed.startsWith("{") ? map(parseYaml(trimmed))
                    : fail(describe(text) + " is not a map; write it as {key: value, ...}");
            case BOOLEAN -> fromEnvironment && trimmed.isEmpty() ? false : strictBoolean(trimmed);
            case STRING -> text;
            default -> scalarText(type, trimmed);
        };
    }

    private Object requireNullable() {
        if (!nullable()) {
            fail("null is not allowed; a " + typeName() + " is needed");
        }
        return null;
    }

    private List<Object> list(Object value) {
        if (!(value instanceof List<?> items)) {
            return fail(describe(value) + " is not a list");
        }
        List<Object> converted = new ArrayList<>(items.size());
        for (Object item : items) {
            SettingType target = elementType == null ? SettingType.STRING : elementType;
            converted.add(item instanceof String text ? scalarText(target, text.trim()) : scalar(target, item));
        }
        return Collections.unmodifiableList(converted);
    }

    private Map<String, Object> map(Object value) {
        if (!(value instanceof Map<?, ?> entries)) {
            return fail(describe(value) + " is not a map");
        }
        Map<String, Object> converted = new LinkedHashMap<>();
        entries.forEach((key, entry) -> converted.put(String.valueOf(key), entry));
        return Collections.unmodifiableMap(converted);
    }

    private Object scalar(SettingType target, Object value) {
        return switch (target) {
            case STRING -> value instanceof Number || value instanceof Boolean || value instanceof String
                    ? String.valueOf(value) : fail(describe(value) + " is not a string");
            case INT -> value instanceof Integer || value instanceof Long l && l == l.intValue()
                    ? ((Number) value).intValue() : fail(describe(value) + " is not an int");
            case LONG -> value instanceof Integer || value instanceof Long
                    ? ((Number) value).longValue() : fail(describe(value) + " is not a long");
            case DOUBLE -> value instanceof Integer || value instanceof Long || value instanceof Double
                    ? finite(((Number) value).doubleValue(), value) : fail(describe(value) + " is not a number");
            case BOOLEAN -> value instanceof Boolean ? value
                    : value instanceof Integer bit && (bit == 0 || bit == 1) ? bit == 1
                    : fail(describe(value) + " is not a boolean; use true, false, 1 or 0");
            case LIST, MAP -> fail(describe(value) + " is not a " + target.tag());
        };
    }

    private Object scalarText(SettingType target, String text) {
        try {
            return switch (target) {
                case INT -> Integer.parseInt(text);
                case LONG -> Long.parseLong(text);
                // Java's own parser takes 10d (ten, not ten days) and 0x1p4 as numbers; the original's float() does not
                case DOUBLE -> finite(PythonFloat.parse(text).orElseThrow(NumberFormatException::new), text);
                case BOOLEAN -> strictBoolean(text);
                default -> text;
            };
        } catch (NumberFormatException e) {
            return fail(describe(text) + " is not " + (target == SettingType.INT ? "an int" : "a " + target.tag()));
        }
    }

    /** NaN and the infinities are refused: a number of seconds would silently become 0 or forever. */
    private double finite(double number, Object given) {
        return Double.isFinite(number) ? number : fail(describe(given) + " is not a finite number");
    }

    private boolean strictBoolean(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.equals("false") || lower.equals("0")) {
            return false;
        }
        return isTrue(lower) || (boolean) fail(describe(text) + " is not a boolean; use true, false, 1 or 0");
    }

    private static boolean isTrue(String text) {
        return text.equalsIgnoreCase("true") || text.equals("1");
    }

    /**
     * Whether {@code text} is a YAML flow list: its first {@code [} closes at its end ({@code [a, b]}, or {@code [a,} which
     * YAML refuses), not IPv6 addresses ({@code [::1]:9092,[::2]:9092}, {@code [::1],[::2]}).
     */
    private static boolean isFlowList(String text) {
        if (!text.startsWith("[")) {
            return false;
        }
        int depth = 0;
        for (int at = 0; at < text.length(); at++) {
            char c = text.charAt(at);
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            if (depth == 0 && at < text.length() - 1) {
                return false;
            }
        }
        return true;
    }

    private static List<Object> splitCommas(String text) {
        List<Object> parts = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                parts.add(part.trim());
            }
        }
        return parts;
    }

    private Object parseYaml(String text) {
        try {
            return SettingsYaml.loader(new LoaderOptions()).load(text);
        } catch (YAMLException e) {
            return fail(describe(text) + " is not valid YAML: " + SettingsFile.problemOf(e));
        }
    }

    /** {@code value} as a message quotes it; "the value" for a secret, which is never quoted. */
    private String describe(Object value) {
        if (secret) {
            return "the value (not shown: it holds a secret)";
        }
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }

    private static <T> T fail(String problem) {
        throw new IllegalArgumentException(problem);
    }
}
