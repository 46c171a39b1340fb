package org.scrapycluster.redismonitor;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.sync.RedisCommands;
import org.scrapycluster.common.queue.QueueKey;

/**
 * Does to Redis what the Python original's crawler does, command for command as
 * docs/operations.md "What a Python process does to Redis" lists: it pops the head of a domain queue
 * with {@code ZRANGE key 0 0} + {@code ZREMRANGEBYRANK key 0 0} in one {@code MULTI} (no lease), and
 * files a found link as a serialized request (crawl fields in {@code meta}, priority the parent's
 * minus 10, {@code curdepth} the parent's plus 1) after a dupefilter {@code SADD}, with a plain
 * {@code ZADD} scored by the negated priority. It keeps no accounting.
 */
final class PythonCrawler extends PythonProcess {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    PythonCrawler(int redisPort, String spider) {
        super(redisPort, spider);
    }

    /** Pops the domain's next request, as the original's queue does; empty when the queue is empty. */
    Optional<JsonNode> pop(String domain) {
        String key = new QueueKey(spider(), domain).key();
        RedisCommands<String, String> sync = redis.sync();
        sync.multi();
        sync.zrange(key, 0, 0);
        sync.zremrangebyrank(key, 0, 0);
        TransactionResult result = sync.exec();
        List<String> head = result.get(0);
        if (head.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MAPPER.readTree(head.get(0)));
        } catch (IOException e) {
            throw new IllegalStateException("not a request: " + head.get(0), e);
        }
    }

    /**
     * Files a link found on the page of {@code parent} into {@code domain}'s queue; false when the
     * dupefilter had already seen {@code url}.
     */
    boolean fileLink(JsonNode parent, String domain, String url) {
        JsonNode crawl = parent.has("meta") ? parent.get("meta") : parent;
        ObjectNode meta = crawl.deepCopy();
        meta.put("priority", crawl.path("priority").asInt() - 10);
        meta.put("curdepth", crawl.path("curdepth").asInt() + 1);
        ObjectNode request = MAPPER.createObjectNode();
        request.put("url", url).put("callback", "parse").putNull("errback").put("method", "GET");
        request.putObject("headers");
        request.put("body", "");
        request.putObject("cookies");
        request.set("meta", meta);
        request.put("_encoding", "utf-8").put("priority", 0).put("dont_filter", false);
        request.putArray("flags");
        String dupefilter = spider() + ":dupefilter:" + meta.path("crawlid").asText();
        if (redis.sync().sadd(dupefilter, "fp:" + url) == 0) {
            return false;
        }
        redis.sync().expire(dupefilter, 600);
        redis.sync().zadd(new QueueKey(spider(), domain).key(), -meta.path("priority").asInt(), request.toString());
        return true;
    }
}
