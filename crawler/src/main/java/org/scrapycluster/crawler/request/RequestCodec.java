package org.scrapycluster.crawler.request;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.scrapycluster.common.queue.MalformedQueueMemberException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * Turns queue members into {@link CrawlRequest}s and back (docs/compatibility.md §4.4). Both member shapes are
 * read: a <em>feed item</em> from the Kafka monitor becomes a GET of its {@code url} ({@code http://}
 * prefixed when it has no scheme) whose meta is every field of the item plus {@code curdepth} 0 and
 * {@code retry_times} 0 when absent; a <em>serialized request</em> from a crawler keeps its method,
 * headers, body, cookies, meta and {@code dont_filter}. Then, for both, a non-null meta {@code useragent}
 * sets the User-Agent header and a meta {@code cookie} — a map, or a string read by
 * {@link CookieParser} — replaces the cookies. Requests are written in the serialized-request shape,
 * which Python crawlers sharing the queues read. Fractional numbers keep their exact decimal form, and a negative
 * zero its sign ({@link ExactNumbers}). Thread-safe.
 */
public final class RequestCodec {

    private static final Pattern HAS_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:(?!\\d+(?:[/?#]|$))");
    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {
    };
    /** The meta fields a member starts with, in the order the hand-out script reads them (lua/lib/member.lua). */
    private static final List<String> CRAWL_FIELDS = List.of("appid", "crawlid", "priority", "expires");

    private final ObjectMapper mapper = JsonMapper.builder()
            .addModule(new SimpleModule("exact-numbers").addDeserializer(Number.class, new ExactNumbers()))
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    /**
     * Reads a queue member.
     *
     * @throws MalformedQueueMemberException when it is not a JSON object with a string {@code url}
     */
    public CrawlRequest decode(String member) throws MalformedQueueMemberException {
        Map<String, Object> root;
        try {
            root = mapper.readValue(member, OBJECT);
        } catch (JsonProcessingException e) {
            throw new MalformedQueueMemberException("not a JSON object (" + e.getOriginalMessage() + ")", member);
        }
        if (root == null || !(root.get("url") instanceof String url) || url.isBlank()) {
            throw new MalformedQueueMemberException("no string 'url'", member);
        }
        CrawlRequest request = root.get("meta") instanceof Map<?, ?> meta
                ? serialized(root, url.strip(), objectMap(meta))
                : feedItem(root, url.strip());
        return applyCrawlFields(request);
    }

    /**
     * The serialized-request member of {@code request} (docs/compatibility.md §4.4.1): the original's keys, its
     * {@code url} first, so that a queue orders requests of one priority by URL as the original's does, then its
     * {@code meta} with the crawl fields first, where the hand-out script reads them without decoding the member.
     */
    public String encode(CrawlRequest request) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("url", request.url());
        member.put("meta", crawlFieldsFirst(request.meta()));
        member.put("callback", "parse");
        member.put("errback", null);
        member.put("method", request.method());
        member.put("headers", request.headers());
        member.put("body", request.body());
        member.put("cookies", request.cookies());
        member.put("_encoding", "utf-8");
        member.put("priority", 0);
        member.put("dont_filter", request.dontFilter());
        member.put("flags", List.of());
        try {
            return mapper.writeValueAsString(member);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the request's meta holds a value that is not JSON: " + request.meta(), e);
        }
    }

    /** {@code meta} with those of {@link #CRAWL_FIELDS} it has first, in that order, then the rest in theirs. */
    private static Map<String, Object> crawlFieldsFirst(Map<String, Object> meta) {
        Map<String, Object> ordered = new LinkedHashMap<>(meta.size() * 2);
        for (String field : CRAWL_FIELDS) {
            if (meta.containsKey(field)) {
                ordered.put(field, meta.get(field));
            }
        }
        ordered.putAll(meta);
        return ordered;
    }

    /** {@code url} with {@code http://} in front when it has no scheme, as the original does for seeds. */
    public static String withScheme(String url) {
        return HAS_SCHEME.matcher(url).find() ? url : "http://" + url;
    }

    private static CrawlRequest feedItem(Map<String, Object> item, String url) {
        Map<String, Object> meta = new LinkedHashMap<>(item);
        meta.putIfAbsent("curdepth", 0);
        meta.putIfAbsent("retry_times", 0);
        return new CrawlRequest(withScheme(url), "GET", Map.of(), "", Map.of(), meta, false);
    }

    private static CrawlRequest serialized(Map<String, Object> root, String url, Map<String, Object> meta) {
        String method = root.get("method") instanceof String given && !given.isBlank() ? given.toUpperCase(Locale.ROOT) : "GET";
        String body = root.get("body") instanceof String given ? given : "";
        return new CrawlRequest(withScheme(url), method, headers(root.get("headers")), body, cookies(root.get("cookies")), meta,
                Boolean.TRUE.equals(root.get("dont_filter")));
    }

    private static CrawlRequest applyCrawlFields(CrawlRequest request) {
        CrawlRequest applied = request;
        if (request.meta().get("useragent") instanceof String userAgent) {
            applied = applied.withHeader("User-Agent", userAgent);
        }
        Object cookie = request.meta().get("cookie");
        if (cookie instanceof Map<?, ?> map) {
            applied = applied.withCookies(textMap(map));
        } else if (cookie instanceof String text) {
            applied = applied.withCookies(CookieParser.parse(text));
        }
        return applied;
    }

    private static Map<String, List<String>> headers(Object value) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((name, values) -> {
                if (values instanceof List<?> list) {
                    List<String> texts = new ArrayList<>();
                    list.forEach(item -> texts.add(String.valueOf(item)));
                    headers.put(String.valueOf(name), texts);
                } else if (values != null) {
                    headers.put(String.valueOf(name), List.of(String.valueOf(values)));
                }
            });
        }
        return headers;
    }

    /** Scrapy cookies: a map of name → value, or a list of {@code {"name", "value"}} maps. */
    private static Map<String, String> cookies(Object value) {
        if (value instanceof Map<?, ?> map) {
            return textMap(map);
        }
        Map<String, String> cookies = new LinkedHashMap<>();
        if (value instanceof List<?> list) {
            for (Object entry : list) {
                if (entry instanceof Map<?, ?> cookie && cookie.get("name") != null && cookie.get("value") != null) {
                    cookies.put(String.valueOf(cookie.get("name")), String.valueOf(cookie.get("value")));
                }
            }
        }
        return cookies;
    }

    private static Map<String, String> textMap(Map<?, ?> map) {
        Map<String, String> texts = new LinkedHashMap<>();
        map.forEach((name, value) -> {
            if (name != null && value != null) {
                texts.put(String.valueOf(name), String.valueOf(value));
            }
        });
        return texts;
    }

    private static Map<String, Object> objectMap(Map<?, ?> map) {
        Map<String, Object> objects = new LinkedHashMap<>();
        map.forEach((name, value) -> objects.put(String.valueOf(name), value));
        return objects;
    }

    /**
     * The numbers of a member as they were written: integers as integers, fractions as their exact decimal (so that
     * {@code 0.10000000000000001} is written back digit for digit), except a negative zero, which a decimal cannot
     * hold: it stays the double {@code -0.0}, as Python reads and writes it.
     */
    private static final class ExactNumbers extends StdDeserializer<Number> {

        ExactNumbers() {
            super(Number.class);
        }

        @Override
        public Number deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
                return parser.getNumberValue();
            }
            BigDecimal exact = parser.getDecimalValue();
            return exact.signum() == 0 && parser.getText().startsWith("-") ? -0.0d : exact;
        }
    }
}
