package org.scrapycluster.api;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settings of the service an extension runs in, read-only: the defaults, the settings file, the
 * environment and {@code --set NAME=VALUE} already merged. Names are UPPER_SNAKE as in
 * docs/settings.md. A setting of your own extension, a name the service does not declare, can only be
 * given as an environment variable of that name: settings files and {@code --set} accept declared names
 * only, and refuse others at start-up (docs/extending.md, "The link filter").
 */
public interface ExtensionSettings {

    /** The value of {@code name} (a String, Number, Boolean, List or Map), or empty when it is not set. */
    Optional<Object> value(String name);

    /** The text of {@code name}, or {@code fallback} when it is not set. */
    default String text(String name, String fallback) {
        return value(name).map(String::valueOf).orElse(fallback);
    }

    /**
     * The whole number {@code name} holds, or {@code fallback} when it is not set.
     *
     * @throws IllegalArgumentException when it is set to something that is not a whole number
     */
    default long number(String name, long fallback) {
        Optional<Object> value = value(name);
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            // a number read from YAML too, or text written as one: 2.0 and 1e3 are whole, 2.5 is not
            return new BigDecimal(value.get().toString().trim()).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name + " is '" + value.get() + "'; it must be a whole number", e);
        }
    }

    /**
     * Whether {@code name} is true ({@code true} or {@code 1}; {@code false}, {@code 0} or empty text is false; any
     * case), or {@code fallback} when it is not set.
     *
     * @throws IllegalArgumentException when it is set to anything else ({@code yes}, a typo): read as false, it would turn
     *                                  off quietly what the setting turns on
     */
    default boolean flag(String name, boolean fallback) {
        Optional<Object> value = value(name);
        if (value.isEmpty()) {
            return fallback;
        }
        if (value.get() instanceof Boolean bool) {
            return bool;
        }
        String text = value.get().toString().strip();
        if (text.equalsIgnoreCase("true") || text.equals("1")) {
            return true;
        }
        if (text.isEmpty() || text.equalsIgnoreCase("false") || text.equals("0")) {
            return false;
        }
        throw new IllegalArgumentException(name + " is '" + value.get() + "'; it must be true, false, 1 or 0");
    }

    /**
     * The list {@code name} holds, each element as text; empty when it is not set. An extension's own setting, text
     * from the environment, is comma-separated ({@code a,b}) or a YAML flow list ({@code [a, b]}).
     */
    default List<String> list(String name) {
        return value(name).map(value -> value instanceof List<?> list ? list.stream().map(String::valueOf).toList()
                : List.of(value.toString())).orElse(List.of());
    }

    /**
     * The map {@code name} holds; empty when it is not set, or set to empty text. An extension's own setting, text from
     * the environment, is a YAML flow map ({@code {retries: 3, host: a}}).
     *
     * @throws IllegalArgumentException when it is set to anything else
     */
    default Map<String, Object> map(String name) {
        Optional<Object> value = value(name);
        if (value.isEmpty() || value.get().toString().isBlank()) {
            return Map.of();
        }
        if (!(value.get() instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(name + " is '" + value.get() + "'; it must be a map");
        }
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, entry) -> copy.put(String.valueOf(key), entry));
        return copy;
    }
}
