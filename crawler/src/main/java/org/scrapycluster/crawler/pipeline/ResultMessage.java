package org.scrapycluster.crawler.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.service.Causes;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.links.Link;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * Writes the Kafka message of a result item (docs/compatibility.md §1.3, §4.14): a JSON object with keys sorted
 * — {@code appid}, {@code attrs}, {@code body}, {@code crawlid}, {@code encoding}, {@code links},
 * {@code request_headers}, {@code response_headers}, {@code response_url}, {@code status_code},
 * {@code status_msg}, {@code timestamp}, {@code url} — where the body is the raw bytes in base64
 * ({@code KAFKA_BASE_64_ENCODE}, and always for a binary response, whose message says {@code "body_base64": true}) or the
 * text decoded with the detected encoding (malformed bytes replaced,
 * so the message is always valid JSON, docs/compatibility.md W14), and the timestamp is UTC, microseconds only when not zero:
 * {@code 2024-03-01T10:22:33.123456}. Fields a spider added (docs/extending.md) join them, in key order. A message without its body (too large for Kafka) has an empty
 * {@code body} and {@code "body_omitted": true}; one without its links too, an empty {@code links} and {@code "links_omitted": true}
 * ({@link FittedMessage}). Thread-safe.
 */
public final class ResultMessage {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    /** The largest buffer a thread keeps between messages: the message of a page of 100 KB or so. */
    private static final int RETAINED_BYTES = 128 * 1024;
    /** The most bytes any encoding a page is decoded with takes for one character (gb18030, UTF-32). */
    private static final int MOST_BYTES_A_CHARACTER = 4;
    /**
     * Each thread's buffer for the messages it writes (a crawler's workers write them all), kept from one message to
     * the next: a message is written there and copied out once, instead of a buffer of the page's size being
     * allocated, zeroed and dropped for each page. It starts at the size of a typical page's message and grows as
     * pages need, up to {@link #RETAINED_BYTES} kept.
     */
    private static final ThreadLocal<MessageBuffer> BUFFERS = ThreadLocal.withInitial(() -> new MessageBuffer(32 * 1024));

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

    /** The writer the crawler's settings describe: their JSON limits and {@code KAFKA_BASE_64_ENCODE}. */
    public static ResultMessage from(Settings settings) {
        return new ResultMessage(new Json(JsonLimits.from(settings)), settings.getBoolean("KAFKA_BASE_64_ENCODE"));
    }

    /** What a message leaves out of its item to be small enough for Kafka, each flagged in the message. */
    public enum Omitted {
        /** The whole item. */
        NOTHING,
        /** An empty {@code body}, and {@code "body_omitted": true}. */
        BODY,
        /** An empty {@code body} and empty {@code links}, and {@code "body_omitted": true, "links_omitted": true}. */
        BODY_AND_LINKS
    }

    /** The message of {@code item} processed at {@code timestamp}. */
    public byte[] encode(CrawlResult item, Instant timestamp) {
        return write(item, timestamp, Omitted.NOTHING, Integer.MAX_VALUE);
    }

    /**
     * The message of {@code item} leaving out what {@code omitted} says, flagged; null when it would be larger than
     * {@code maxBytes}, in which case it is written no further than that.
     */
    public byte[] encode(CrawlResult item, Instant timestamp, Omitted omitted, int maxBytes) {
        return write(item, timestamp, omitted, maxBytes);
    }

    /** Python's {@code datetime.isoformat()} of a naive UTC time. */
    public static String timestamp(Instant instant) {
        LocalDateTime time = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        int micros = time.getNano() / 1000;
        String seconds = SECONDS.format(time);
        return micros == 0 ? seconds : seconds + "." + String.valueOf(1_000_000 + micros).substring(1);
    }

    private byte[] write(CrawlResult item, Instant timestamp, Omitted omitted, int maxBytes) {
        MessageBuffer out = BUFFERS.get();
        out.limit(maxBytes);
        if (omitted == Omitted.NOTHING) { // room for the body and its escapes: a large page's grows once, not by doublings
            out.reserve(item.body().length + (item.body().length >> 4) + 2048);
        }
        try {
            write(item, timestamp, omitted, out);
            return out.toByteArray();
        } catch (MessageBuffer.LimitReached e) {
            return null;
        } finally {
            out.clear(RETAINED_BYTES);
        }
    }

    private void write(CrawlResult item, Instant timestamp, Omitted omitted, MessageBuffer out) {
        boolean omitBody = omitted != Omitted.NOTHING;
        try (JsonGenerator generator = json.generator(out)) {
            Fields fields = new Fields(generator, item.fields());
            generator.writeStartObject();
            fields.name("appid");
            generator.writeString(item.appid());
            fields.name("attrs");
            json.writeSorted(generator, item.attrs());
            fields.name("body");
            if (omitBody) {
                generator.writeString("");
                fields.name("body_omitted");
                generator.writeBoolean(true);
            } else {
                body(item, generator, out);
                if (item.binary()) {
                    fields.name("body_base64");
                    generator.writeBoolean(true);
                }
            }
            fields.name("crawlid");
            generator.writeString(item.crawlid());
            fields.name("encoding");
            generator.writeString(item.encoding().name());
            fields.name("links");
            if (omitted == Omitted.BODY_AND_LINKS) {
                generator.writeStartArray();
                generator.writeEndArray();
                fields.name("links_omitted");
                generator.writeBoolean(true);
            } else {
                links(item.links(), generator);
            }
            fields.name("request_headers");
            headers(item.requestHeaders(), generator);
            fields.name("response_headers");
            headers(item.responseHeaders(), generator);
            fields.name("response_url");
            generator.writeString(item.responseUrl());
            fields.name("status_code");
            generator.writeNumber(item.statusCode());
            fields.name("status_msg");
            generator.writeString(item.statusMsg());
            fields.name("timestamp");
            generator.writeString(timestamp(timestamp));
            fields.name("url");
            generator.writeString(item.url());
            fields.rest();
            generator.writeEndObject();
        } catch (IOException e) {
            // Jackson's object writer (attrs, a spider's fields) wraps whatever its output throws
            Optional<MessageBuffer.LimitReached> limitReached = Causes.first(e, MessageBuffer.LimitReached.class);
            if (limitReached.isPresent()) {
                throw limitReached.get();
            }
            throw new UncheckedIOException("cannot write a result message", e);
        }
    }

    /**
     * Base64 text, the UTF-8 bytes as they are when they are valid, or the body decoded with its encoding. A text that
     * cannot fit is not made: base64 takes 4 bytes for every 3, and a decoded character at least one UTF-8 byte for at
     * most {@value #MOST_BYTES_A_CHARACTER} of the body's.
     */
    private void body(CrawlResult item, JsonGenerator generator, MessageBuffer out) throws IOException {
        byte[] body = item.body();
        if (base64 || item.binary()) {
            out.requireRoom(4L * ((body.length + 2) / 3));
            generator.writeString(Base64.getEncoder().encodeToString(body));
            return;
        }
        if (item.encoding().charset().equals(StandardCharsets.UTF_8)) {
            Utf8Text.write(body, () -> item.encoding().decode(body), generator, out);
            return;
        }
        out.requireRoom(body.length / MOST_BYTES_A_CHARACTER);
        generator.writeString(item.encoding().decode(body));
    }

    private static void links(List<Link> links, JsonGenerator generator) throws IOException {
        generator.writeStartArray();
        for (Link link : links) {
            generator.writeStartObject();
            generator.writeStringField("text", link.text());
            generator.writeStringField("url", link.url());
            generator.writeEndObject();
        }
        generator.writeEndArray();
    }

    private static void headers(Map<String, List<String>> headers, JsonGenerator generator) throws IOException {
        generator.writeStartObject();
        for (Map.Entry<String, List<String>> header : new TreeMap<>(headers).entrySet()) {
            generator.writeArrayFieldStart(header.getKey());
            for (String value : header.getValue()) {
                generator.writeString(value);
            }
            generator.writeEndArray();
        }
        generator.writeEndObject();
    }

    /** Writes the names of the message's fields, with the fields a spider added where their names sort among them. */
    private final class Fields {
        private final JsonGenerator generator;
        private final Iterator<Map.Entry<String, Object>> added;
        private Map.Entry<String, Object> next;

        Fields(JsonGenerator generator, Map<String, Object> added) {
            this.generator = generator;
            this.added = added.isEmpty() ? null : new TreeMap<>(added).entrySet().iterator();
            advance();
        }

        /** Writes the added fields that sort before {@code name}, then {@code name}. */
        void name(String name) throws IOException {
            while (next != null && next.getKey().compareTo(name) < 0) {
                writeAdded();
            }
            generator.writeFieldName(name);
        }

        /** Writes the added fields that sort after every field of the message. */
        void rest() throws IOException {
            while (next != null) {
                writeAdded();
            }
        }

        private void writeAdded() throws IOException {
            generator.writeFieldName(next.getKey());
            json.writeSorted(generator, next.getValue());
            advance();
        }

        private void advance() {
            next = added != null && added.hasNext() ? added.next() : null;
        }
    }
}
