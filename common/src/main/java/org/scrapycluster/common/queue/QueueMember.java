package org.scrapycluster.common.queue;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The crawl fields of one queue member, read from either shape of docs/compatibility.md §4.4.1: a
 * <em>feed item</em> (the Kafka monitor's flat request, crawl fields at the top level) or a
 * <em>serialized request</em> (a crawler's request, crawl fields inside {@code meta}, its own
 * {@code url} at the top level).
 *
 * @param raw      the member exactly as stored (the queue's identity of the request)
 * @param shape    which of the two shapes it has
 * @param url      the URL to fetch (top-level {@code url})
 * @param appid    owning application
 * @param crawlid  crawl id
 * @param spiderid the spider it is meant for; empty when the member does not say
 * @param priority the crawl priority (not the framework's request priority)
 * @param expires  epoch seconds after which the crawl is over; 0 for never
 */
public record QueueMember(String raw, Shape shape, String url, String appid, String crawlid, String spiderid,
                          int priority, long expires) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The two member shapes. */
    public enum Shape {
        /** Written by the Kafka monitor: the validated crawl request plus {@code ts}. */
        FEED_ITEM,
        /** Written by a crawler: {@code url, callback, method, headers, body, cookies, meta{…}, …}. */
        SERIALIZED_REQUEST
    }

    public QueueMember {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(appid, "appid");
        Objects.requireNonNull(crawlid, "crawlid");
        Objects.requireNonNull(spiderid, "spiderid");
    }

    /**
     * Reads a member. Requires a JSON object with a string {@code url} and, at the top level or in
     * {@code meta}, string {@code appid} and {@code crawlid} and a numeric {@code priority};
     * {@code spiderid} and {@code expires} are optional.
     *
     * @throws MalformedQueueMemberException saying what is wrong, for the caller to report
     */
    public static QueueMember parse(String raw) throws MalformedQueueMemberException {
        JsonNode root;
        try {
            root = MAPPER.readTree(raw);
        } catch (JsonProcessingException e) {
            throw new MalformedQueueMemberException("not JSON (" + e.getOriginalMessage() + ")", raw);
        }
        if (root == null || !root.isObject()) {
            throw new MalformedQueueMemberException("not a JSON object", raw);
        }
        JsonNode meta = root.get("meta");
        boolean serialized = meta != null && meta.isObject();
        JsonNode fields = serialized ? meta : root;
        JsonNode priority = fields.get("priority");
        if (priority == null || !priority.isNumber()) {
            throw new MalformedQueueMemberException("no numeric crawl priority", raw);
        }
        JsonNode expires = fields.get("expires");
        JsonNode spiderid = fields.get("spiderid");
        return new QueueMember(raw, serialized ? Shape.SERIALIZED_REQUEST : Shape.FEED_ITEM,
                text(root, "url", raw), text(fields, "appid", raw), text(fields, "crawlid", raw),
                spiderid != null && spiderid.isTextual() ? spiderid.asText() : "",
                priority.canConvertToInt() ? priority.intValue() : priority.asDouble() > 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE,
                expires != null && expires.isNumber() ? CrawlFields.whole(expires.numberValue()) : 0L);
    }

    /** The crawl this member belongs to, on the spider {@code spiderId} (the queue's). */
    public CrawlRef crawl(String spiderId) {
        return new CrawlRef(spiderId, appid, crawlid);
    }

    /** Whether the crawl has an expiry and {@code now} has reached it. */
    public boolean expiredAt(Instant now) {
        return expires != 0 && now.getEpochSecond() >= expires;
    }

    private static String text(JsonNode node, String field, String raw) throws MalformedQueueMemberException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new MalformedQueueMemberException("no string '" + field + "'", raw);
        }
        return value.asText();
    }
}
