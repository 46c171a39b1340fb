package org.scrapycluster.rest.live;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.queue.CrawlRef;

/**
 * The last {@code LIVE_MAX_COMPLETED} crawls that ended, as announced on the outbound topic, newest
 * first: {@code {"action":"complete","appid","crawlid","spiderid","server_time","total_pages"}} or
 * {@code {"action":"expired",…,"total_expired"}}, each with its duration when this gateway saw the
 * crawl start. Fed by the gateway's consumer of the outbound topic, read by the live view's
 * refresh: thread-safe.
 */
final class CompletedCrawls implements Consumer<JsonNode> {

    private final int max;
    private final Function<CrawlRef, OptionalLong> startedMillis;
    private final Deque<ObjectNode> completed = new ArrayDeque<>();

    /**
     * @param max             how many to keep
     * @param startedMillis when a crawl started, if the gateway saw it start
     */
    CompletedCrawls(int max, Function<CrawlRef, OptionalLong> startedMillis) {
        this.max = max;
        this.startedMillis = startedMillis;
    }

    /** Takes a notice of the outbound topic (a message without {@code uuid}); all but {@code complete} and {@code expired} are ignored. */
    @Override
    public void accept(JsonNode notice) {
        String action = notice.path("action").asText();
        if (!(action.equals("complete") || action.equals("expired")) || !notice.path("appid").isTextual()
                || !notice.path("crawlid").isTextual() || !notice.path("spiderid").isTextual()) {
            return;
        }
        CrawlRef crawl = new CrawlRef(notice.get("spiderid").asText(), notice.get("appid").asText(), notice.get("crawlid").asText());
        long finished = notice.path("server_time").asLong();
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        row.put("appid", crawl.appid());
        row.put("crawlid", crawl.crawlid());
        row.put("spiderid", crawl.spiderId());
        row.put("end", action);
        if (action.equals("complete")) {
            row.put("total_pages", notice.path("total_pages").asLong());
        } else {
            row.putNull("total_pages");
        }
        row.put("server_time", finished);
        OptionalLong started = startedMillis.apply(crawl);
        if (started.isPresent() && finished > 0) {
            row.put("duration_seconds", Math.max(0, finished - started.getAsLong() / 1000));
        } else {
            row.putNull("duration_seconds");
        }
        synchronized (completed) {
            completed.addFirst(row);
            while (completed.size() > max) {
                completed.removeLast();
            }
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
