package org.scrapycluster.crawler.pipeline;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.json.Json;
import org.scrapycluster.crawler.links.Link;

/**
 * Writes the Kafka message of a result item (docs/compatibility.md §1.3, §4.14): a JSON object with keys sorted
 * — {@code appid}, {@code attrs}, {@code body}, {@code crawlid}, {@code encoding}, {@code links},
 * {@code request_headers}, {@code response_headers}, {@code response_url}, {@code status_code},
 * {@code status_msg}, {@code timestamp}, {@code url} — where the body is the raw bytes in base64
 * ({@code KAFKA_BASE_64_ENCODE}) or the text decoded with the detected encoding (malformed bytes replaced,
 * so the message is always valid JSON, docs/compatibility.md W14), and the timestamp is UTC, microseconds only when not zero:
 * {@code 2024-03-01T10:22:33.123456}. Fields a spider added (docs/extending.md) join them, in key order. A message without its body (too large for Kafka) has an empty
 * {@code body} and {@code "body_omitted": true}. Thread-safe.
 */
public final class ResultMessage {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private final Json json;
    private final boolean base64;

    /**
     * @param json   the JSON writer
     * @param base64 whether bodies go base64-encoded ({@code KAFKA_BASE_64_ENCODE})
     */
    public ResultMessage(Json json, boolean base64) {
        this.json = json;
        this.base64 = base64;
    }

    /** The message of {@code item} processed at {@code timestamp}. */
    public byte[] encode(CrawlResult item, Instant timestamp) {
        return json.writeSortedBytes(fields(item, timestamp, false));
    }

    /** The message of {@code item} without its body, flagged {@code body_omitted}. */
    public byte[] encodeWithoutBody(CrawlResult item, Instant timestamp) {
        return json.writeSortedBytes(fields(item, timestamp, true));
    }

    /** Python's {@code datetime.isoformat()} of a naive UTC time. */
    public static String timestamp(Instant instant) {
        LocalDateTime time = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        int micros = time.getNano() / 1000;
        String seconds = SECONDS.format(time);
        return micros == 0 ? seconds : seconds + String.format(".%06d", micros);
    }

    private Map<String, Object> fields(CrawlResult item, Instant timestamp, boolean omitBody) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("appid", item.appid());
        fields.put("attrs", item.attrs());
        fields.put("body", omitBody ? "" : body(item));
        if (omitBody) {
            fields.put("body_omitted", true);
        }
        fields.put("crawlid", item.crawlid());
        fields.put("encoding", item.encoding().name());
        List<Map<String, String>> links = new ArrayList<>(item.links().size());
        for (Link link : item.links()) {
            Map<String, String> entry = new LinkedHashMap<>();
            entry.put("text", link.text());
            entry.put("url", link.url());
            links.add(entry);
        }
        fields.put("links", links);
        fields.put("request_headers", item.requestHeaders());
        fields.put("response_headers", item.responseHeaders());
        fields.put("response_url", item.responseUrl());
        fields.put("status_code", item.statusCode());
        fields.put("status_msg", item.statusMsg());
        fields.put("timestamp", timestamp(timestamp));
        fields.put("url", item.url());
        fields.putAll(item.fields());
        return fields;
    }

    /** Base64 text, the UTF-8 bytes as they are when they are valid, or the body decoded with its encoding. */
    private Object body(CrawlResult item) {
        if (base64) {
            return Base64.getEncoder().encodeToString(item.body());
        }
        if (item.encoding().charset().equals(StandardCharsets.UTF_8)) {
            Utf8Text text = Utf8Text.ifValid(item.body());
            if (text != null) {
                return text;
            }
        }
        return item.encoding().decode(item.body());
    }
}
