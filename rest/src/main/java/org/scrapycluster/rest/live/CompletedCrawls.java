package org.scrapycluster.rest.live;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.queue.CrawlRef;

/**
 * The last {@code LIVE_MAX_COMPLETED} crawls that ended, as the outbound topic tells, newest first:
 * {@code {"action":"complete","appid","crawlid","spiderid","server_time","total_pages","start_time"}},
 * {@code {"action":"expired",…,"total_expired"}}, or a stop's answer {@code {"action":"stop",…,"total_purged","uuid"}}
 * (a stopped crawl is not announced otherwise), each with its duration when the crawl's start is known: the
 * {@code start_time} of a {@code complete} announcement, else when the crawl table saw it start. A
 * crawl is listed as stopped once: its crawlid stays blacklisted, so a second stop of it (answered with
 * {@code total_purged} 0) ends nothing; nor does the expiry of a crawl listed as complete that purged nothing (a
 * crawl with an {@code expires} is announced expired at that time even when it finished before). Fed by the gateway's
 * consumer of the outbound topic, read by the live view's refresh: thread-safe.
 */
final class CompletedCrawls implements Consumer<JsonNode> {

    /** The {@code end} of a row, by the {@code action} of the message that ended its crawl. */
    private static final Map<String, String> END = Map.of("complete", "complete", "expired", "expired", "stop", "stopped");

    private final int max;
    private final Function<CrawlRef, OptionalLong> startedMillis;
    private final Deque<ObjectNode> completed = new ArrayDeque<>();

    /**
     * @param max             how many to keep
     * @param startedMillis when a crawl started, if the gateway knows
     */
    CompletedCrawls(int max, Function<CrawlRef, OptionalLong> startedMillis) {
        this.max = max;
        this.startedMillis = startedMillis;
    }

    /**
     * Takes a message of the outbound topic; all but crawl ends (complete, expired, stop) are ignored, and so is a stop
     * or an expiry that failed (its error answer counts nothing: the crawl goes on).
     */
    @Override
    public void accept(JsonNode message) {
        String end = END.get(message.path("action").asText());
        if (end == null || !message.path("appid").isTextual() || !message.path("crawlid").isTextual()
                || !message.path("spiderid").isTextual() || end.equals("stopped") && !message.path("total_purged").isIntegralNumber()
                || end.equals("expired") && !message.path("total_expired").isIntegralNumber()) {
            return;
        }
        CrawlRef crawl = new CrawlRef(message.get("spiderid").asText(), message.get("appid").asText(), message.get("crawlid").asText());
        long finished = message.path("server_time").asLong();
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        row.put("appid", crawl.appid());
        row.put("crawlid", crawl.crawlid());
        row.put("spiderid", crawl.spiderId());
        row.put("end", end);
        putCount(row, "total_pages", end.equals("complete") ? message.path("total_pages") : null);
        // what a stop or an expiry purged: the expiry's notice calls it total_expired
        putCount(row, "total_purged", switch (end) {
            case "stopped" -> message.path("total_purged");
            case "expired" -> message.path("total_expired");
            default -> null;
        });
        row.put("server_time", finished);
        OptionalLong started = startedSeconds(crawl, message.path("start_time"));
        if (started.isPresent() && finished > 0) {
            row.put("duration_seconds", Math.max(0, finished - started.getAsLong()));
        } else {
            row.putNull("duration_seconds");
        }
        synchronized (completed) {
            if (end.equals("stopped") && completed.stream().anyMatch(listed -> isEnd(listed, "stopped", crawl))
                    || end.equals("expired") && row.get("total_purged").asLong() == 0
                    && completed.stream().anyMatch(listed -> isEnd(listed, "complete", crawl))) {
                return;
            }
            completed.addFirst(row);
            while (completed.size() > max) {
                completed.removeLast();
            }
        }
    }

    /** When {@code crawl} started, in epoch seconds: as its announcement says ({@code start_time}), else if the gateway knows. */
    private OptionalLong startedSeconds(CrawlRef crawl, JsonNode announced) {
        if (announced.isIntegralNumber() && announced.canConvertToLong()) {
            return OptionalLong.of(announced.asLong());
        }
        OptionalLong millis = startedMillis.apply(crawl);
        return millis.isPresent() ? OptionalLong.of(millis.getAsLong() / 1000) : OptionalLong.empty();
    }

    private static boolean isEnd(ObjectNode row, String end, CrawlRef crawl) {
        return row.get("end").asText().equals(end) && row.get("spiderid").asText().equals(crawl.spiderId())
                && row.get("appid").asText().equals(crawl.appid()) && row.get("crawlid").asText().equals(crawl.crawlid());
    }

    /** {@code count}, a field of the message, as a number; null when the end carries none ({@code count} null). */
    private static void putCount(ObjectNode row, String field, JsonNode count) {
        if (count != null) {
            row.put(field, count.asLong());
        } else {
            row.putNull(field);
        }
    }

    /** The completed crawls, newest first. */
    ArrayNode rows() {
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        synchronized (completed) {
            completed.forEach(row -> rows.add(row.deepCopy()));
        }
        return rows;
    }
}
