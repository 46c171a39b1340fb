package org.scrapycluster.redismonitor;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Does to Redis what the Python original's Redis monitor does to stop or expire a crawl
 * (docs/operations.md "What a Python process does to Redis"): {@code SADD <spiderid>:blacklist <appid>||<crawlid>},
 * then, member by member, {@code ZREM} of each of the crawl's requests from every {@code <spiderid>:*:queue} it finds
 * with {@code SCAN}, and {@code DEL timeout:<spiderid>:<appid>:<crawlid>} once its answer is sent. It keeps no
 * accounting and knows no leases.
 */
final class PythonStopMonitor extends PythonProcess {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    PythonStopMonitor(int redisPort, String spider) {
        super(redisPort, spider);
    }

    /** Stops the crawl (an expiry does the same); returns {@code total_purged}. */
    long stop(String appid, String crawlid) {
        RedisCommands<String, String> sync = redis.sync();
        sync.sadd(spider() + ":blacklist", appid + "||" + crawlid);
        long purged = 0;
        ScanIterator<String> queues = ScanIterator.scan(sync, ScanArgs.Builder.matches(spider() + ":*:queue"));
        while (queues.hasNext()) {
            String queue = queues.next();
            ScanIterator<ScoredValue<String>> members = ScanIterator.zscan(sync, queue);
            while (members.hasNext()) {
                String member = members.next().getValue();
                JsonNode request = read(member);
                JsonNode crawl = request.has("meta") ? request.get("meta") : request;
                if (appid.equals(crawl.path("appid").asText()) && crawlid.equals(crawl.path("crawlid").asText())) {
                    purged += sync.zrem(queue, member);
                }
            }
        }
        sync.del("timeout:" + spider() + ":" + appid + ":" + crawlid);
        return purged;
    }

    private static JsonNode read(String member) {
        try {
            return MAPPER.readTree(member);
        } catch (IOException e) {
            throw new UncheckedIOException("not a request: " + member, e);
        }
    }
}
