package org.scrapycluster.common.queue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The fields of a request that name its crawl and account for it: what the scripts that file a request
 * ({@code lua/enqueue.lua}) or settle it ({@code lua/ack.lua}) need of its queue member. Java has them
 * before it encodes the member (or after it decoded it), so they travel beside the member as four script
 * arguments, the same way to every script, and Redis never decodes a member it is handed
 * (docs/architecture.md "Crawl accounting"). The members Redis hands out or takes back on its own (the
 * hand-out, the reaper, a purge) are read there, with the same rules as {@link #ofMember}.
 *
 * @param appid    the owning application
 * @param crawlid  the crawl
 * @param priority the crawl priority as the accounting names it: the number truncated toward zero
 * @param expires  the crawl's {@code expires} as the member writes it, {@code "0"} for none
 */
public record CrawlFields(String appid, String crawlid, long priority, String expires) {

    /** How many script arguments a request's crawl fields take. */
    public static final int ARGUMENTS = 4;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    public CrawlFields {
        Objects.requireNonNull(appid, "appid");
        Objects.requireNonNull(crawlid, "crawlid");
        Objects.requireNonNull(expires, "expires");
    }

    /**
     * The crawl fields of a request whose crawl fields are these values: string {@code appid} and
     * {@code crawlid} and a numeric {@code priority}; an {@code expires} that is not a number means none.
     * Empty when one of the three is missing or of another type: such a request cannot be filed.
     */
    public static Optional<CrawlFields> of(Object appid, Object crawlid, Object priority, Object expires) {
        if (!(appid instanceof String app) || !(crawlid instanceof String crawl) || !(priority instanceof Number number)) {
            return Optional.empty();
        }
        return Optional.of(new CrawlFields(app, crawl, whole(number), expires(expires)));
    }

    /**
     * {@code number} truncated toward zero; one beyond a long's range (a member written by hand, an {@code expires} the
     * schema takes) as the farthest that way.
     */
    static long whole(Number number) {
        if (number instanceof BigDecimal decimal) {
            return whole(decimal.toBigInteger());
        }
        if (number instanceof BigInteger integer) {
            return integer.bitLength() < Long.SIZE ? integer.longValue() : integer.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        double value = number.doubleValue();
        return value >= 0x1p63 ? Long.MAX_VALUE : value < -0x1p63 ? Long.MIN_VALUE : number.longValue();
    }

    /** {@link #of(Object, Object, Object, Object)} of a request's crawl fields, as a crawler's request keeps them in its meta. */
    public static Optional<CrawlFields> of(Map<String, ?> fields) {
        return of(fields.get("appid"), fields.get("crawlid"), fields.get("priority"), fields.get("expires"));
    }

    /**
     * The crawl fields of a request handed out with queue score {@code score}: as {@link #of(Map)}, except
     * that a request without a numeric priority is counted under the priority its score gives
     * ({@code −score}), as it was counted when it came into the queue. Empty for a request of no crawl.
     */
    public static Optional<CrawlFields> ofHandedOut(Map<String, ?> fields, double score) {
        Object priority = fields.get("priority") instanceof Number number ? number : -score;
        return of(fields.get("appid"), fields.get("crawlid"), priority, fields.get("expires"));
    }

    /** {@link #of(Object, Object, Object, Object)} of the crawl fields of a JSON object (a feed item, or a request's meta). */
    public static Optional<CrawlFields> of(JsonNode fields) {
        return of(fields, null);
    }

    /**
     * Reads the crawl fields of a queue member of either shape (a feed item keeps them at the top level, a
     * serialized request in {@code meta}). Empty when it is not a JSON object with them.
     */
    public static Optional<CrawlFields> ofMember(String member) {
        return memberFields(member).flatMap(CrawlFields::of);
    }

    /** {@link #ofHandedOut} of a member that could not be read as a request, for its accounting. */
    public static Optional<CrawlFields> ofMember(String member, double score) {
        return memberFields(member).flatMap(fields -> of(fields, -score));
    }

    /** The object of a member that holds its crawl fields: its {@code meta}, or the member itself. */
    private static Optional<JsonNode> memberFields(String member) {
        JsonNode root;
        try {
            root = MAPPER.readTree(member);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            return Optional.empty();
        }
        return Optional.of(root.path("meta").isContainerNode() ? root.get("meta") : root);
    }

    /** The crawl fields of {@code fields}, with {@code priorityWhenNone} (when not null) for a priority that is not a number. */
    private static Optional<CrawlFields> of(JsonNode fields, Double priorityWhenNone) {
        JsonNode priority = fields.path("priority");
        JsonNode expires = fields.path("expires");
        return of(text(fields.path("appid")), text(fields.path("crawlid")),
                priority.isNumber() ? priority.numberValue() : priorityWhenNone, expires.isNumber() ? expires.numberValue() : null);
    }

    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : null;
    }

    /** Writes the four arguments at {@code at}: appid, crawlid, priority, expires. */
    public void writeTo(String[] arguments, int at) {
        arguments[at] = appid;
        arguments[at + 1] = crawlid;
        arguments[at + 2] = Long.toString(priority);
        arguments[at + 3] = expires;
    }

    /** Writes the four arguments of a request that belongs to no crawl: all empty. */
    public static void writeNone(String[] arguments, int at) {
        for (int i = 0; i < ARGUMENTS; i++) {
            arguments[at + i] = "";
        }
    }

    private static String expires(Object value) {
        return switch (value) {
            // plain but for a number of more than 19 digits before or after the point (1e999999999 from a member written by
            // hand would be a string of a billion digits): Lua reads either form
            case BigDecimal decimal -> decimal.signum() == 0 ? "0"
                    : Math.abs((long) decimal.precision() - decimal.scale()) > 19 ? decimal.toString() : decimal.toPlainString();
            case Number number -> number.doubleValue() == 0 ? "0" : number.toString();
            case null, default -> "0";
        };
    }
}
