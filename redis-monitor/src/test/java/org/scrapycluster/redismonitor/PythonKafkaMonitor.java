package org.scrapycluster.redismonitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.queue.QueueKey;

/**
 * Does to Redis what the Python original's Kafka monitor does with a crawl request
 * (docs/operations.md "What a Python process does to Redis"): the validated feed item, crawl fields
 * at the top level and {@code ts} added, is {@code ZADD}ed to its domain queue scored by the negated
 * priority, and {@code timeout:<spiderid>:<appid>:<crawlid>} is set when it expires. It keeps no
 * accounting.
 */
final class PythonKafkaMonitor extends PythonProcess {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    PythonKafkaMonitor(int redisPort, String spider) {
        super(redisPort, spider);
    }

    /** Files a seed of the crawl, with the schema's defaults. */
    void file(String domain, String url, String appid, String crawlid, int priority, int maxdepth, long expires) {
        ObjectNode item = MAPPER.createObjectNode();
        item.put("url", url).put("appid", appid).put("crawlid", crawlid).put("spiderid", spider()).put("priority", priority)
                .put("maxdepth", maxdepth).put("expires", expires).putNull("allowed_domains").putNull("allow_regex")
                .putNull("deny_regex").putNull("deny_extensions").putNull("useragent").putNull("cookie").putNull("attrs")
                .put("ts", System.currentTimeMillis() / 1000.0);
        redis.sync().zadd(new QueueKey(spider(), domain).key(), -priority, item.toString());
        if (expires != 0) {
            redis.sync().set("timeout:" + spider() + ":" + appid + ":" + crawlid, Long.toString(expires));
        }
    }
}
