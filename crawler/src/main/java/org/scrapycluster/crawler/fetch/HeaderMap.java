package org.scrapycluster.crawler.fetch;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HTTP headers as they were sent or received: an immutable, ordered list of name/value pairs in which a name
 * may repeat (several {@code Set-Cookie}), looked up case-insensitively.
 */
public final class HeaderMap {

    private static final HeaderMap EMPTY = new HeaderMap(List.of());

    private final List<Map.Entry<String, String>> entries;

    private HeaderMap(List<Map.Entry<String, String>> entries) {
        this.entries = entries;
    }

    public static HeaderMap empty() {
        return EMPTY;
    }

    /** Headers from name, value pairs, in order. */
    public static HeaderMap of(String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("headers come in name, value pairs");
        }
        Builder builder = builder();
        for (int i = 0; i < pairs.length; i += 2) {
            builder.add(pairs[i], pairs[i + 1]);
        }
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every value of {@code name}, in order; empty when absent. */
    public List<String> all(String name) {
        List<String> values = new ArrayList<>(1);
        for (Map.Entry<String, String> entry : entries) {
            if (entry.getKey().equalsIgnoreCase(name)) {
                values.add(entry.getValue());
            }
        }
        return values;
    }

    /** The first value of {@code name}, or null. */
    public String first(String name) {
        for (Map.Entry<String, String> entry : entries) {
            if (entry.getKey().equalsIgnoreCase(name)) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** The last value of {@code name}, or null (Scrapy's {@code headers.get} reads the last). */
    public String last(String name) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).getKey().equalsIgnoreCase(name)) {
                return entries.get(i).getValue();
            }
        }
        return null;
    }

    public boolean contains(String name) {
        return first(name) != null;
    }

    /** How many name/value pairs. */
    public int size() {
        return entries.size();
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The pairs in order. */
    public List<Map.Entry<String, String>> entries() {
        return entries;
    }

    /** These headers with every value of {@code name} replaced by {@code value}, in the place of the first. */
    public HeaderMap with(String name, String value) {
        Builder builder = builder();
        boolean placed = false;
        for (Map.Entry<String, String> entry : entries) {
            if (!entry.getKey().equalsIgnoreCase(name)) {
                builder.add(entry.getKey(), entry.getValue());
            } else if (!placed) {
                builder.add(name, value);
                placed = true;
            }
        }
        if (!placed) {
            builder.add(name, value);
        }
        return builder.build();
    }

    /** These headers without the last value of {@code name} (as Scrapy's compression middleware pops the last Content-Encoding). */
    public HeaderMap withoutLast(String name) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).getKey().equalsIgnoreCase(name)) {
                List<Map.Entry<String, String>> copy = new ArrayList<>(entries);
                copy.remove(i);
                return new HeaderMap(List.copyOf(copy));
            }
        }
        return this;
    }

    /** Name → values, names as first seen, grouped case-insensitively, in order. */
    public Map<String, List<String>> asMap() {
        return group(false);
    }

    /**
     * Name → values with names written as Scrapy writes them ({@code str.title()}: {@code content-type} →
     * {@code Content-Type}, {@code x-ua-compatible} → {@code X-Ua-Compatible}), the shape of the crawl
     * result's {@code response_headers} and {@code request_headers}.
     */
    public Map<String, List<String>> toScrapyMap() {
        return group(true);
    }

    private Map<String, List<String>> group(boolean titleCase) {
        Map<String, List<String>> grouped = new LinkedHashMap<>();
        Map<String, String> spelling = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : entries) {
            String key = titleCase(entry.getKey());
            String name = titleCase ? key : spelling.computeIfAbsent(key, k -> entry.getKey());
            grouped.computeIfAbsent(name, n -> new ArrayList<>(1)).add(entry.getValue());
        }
        grouped.replaceAll((name, values) -> List.copyOf(values));
        return Collections.unmodifiableMap(grouped);
    }

    /** Python's {@code str.title()} for ASCII header names. */
    static String titleCase(String name) {
        StringBuilder out = new StringBuilder(name.length());
        boolean previousLetter = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = Character.isLetter(c);
            out.append(letter ? (previousLetter ? Character.toLowerCase(c) : Character.toUpperCase(c)) : c);
            previousLetter = letter;
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HeaderMap that && entries.equals(that.entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }

    /** Collects headers in order. */
    public static final class Builder {
        private final List<Map.Entry<String, String>> entries = new ArrayList<>();

        private Builder() {
        }

        public Builder add(String name, String value) {
            if (name == null || name.isEmpty() || value == null) {
                throw new IllegalArgumentException("a header needs a name and a value: " + name + "=" + value);
            }
            entries.add(new SimpleImmutableEntry<>(name, value));
            return this;
        }

        public HeaderMap build() {
            return entries.isEmpty() ? EMPTY : new HeaderMap(List.copyOf(entries));
        }
    }
}
