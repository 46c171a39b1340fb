package org.scrapycluster.redismonitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.queue.QueueKey;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Does to Redis what the Python original's Kafka monitor does with a crawl request
 * (docs/operations.md "What a Python process does to Redis"): the validated feed item, crawl fields
 * at the top level and {@code ts} added, is {@code ZADD}ed to its domain queue scored by the negated
 * priority, and {@code timeout:<spiderid>:<appid>:<crawlid>} is set when it expires. It keeps no
 * accounting.
 */
final class PythonKafkaMonitor implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> redis;
    private final String spider;

    /** A process of its own: its own connection to the Redis at {@code 127.0.0.1:redisPort}. */
    PythonKafkaMonitor(int redisPort, String spider) {
        this.client = RedisClient.create("redis://127.0.0.1:" + redisPort);
        this.redis = client.connect();
        this.spider = spider;
    }

    String spider() {
        return spider;
    }

    @Override
    public void close() {
        redis.close();
        client.shutdown();
    }

    /** Files a seed of the crawl, with the schema's defaults. */
    void file(String domain, String url, String appid, String crawlid, int priority, int maxdepth, long expires) {
        ObjectNode item = MAPPER.createObjectNode();
        item.put("url", url).put("appid", appid).put("crawlid", crawlid).put("spiderid", spider).put("priority", priority)
                .put("maxdepth", maxdepth).put("expires", expires).putNull("allowed_domains").putNull("allow_regex")
                .putNull("deny_regex").putNull("deny_extensions").putNull("useragent").putNull("cookie").putNull("attrs")
                .put("ts", System.currentTimeMillis() / 1000.0);
        redis.sync().zadd(new QueueKey(spider, domain).key(), -priority, item.toString());
        if (expires != 0) {
            redis.sync().set("timeout:" + spider + ":" + appid + ":" + crawlid, Long.toString(expires));
        }
    }
}
