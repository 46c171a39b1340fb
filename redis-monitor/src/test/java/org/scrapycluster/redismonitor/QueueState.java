package org.scrapycluster.redismonitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.queue.CrawlFields;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.HandOut;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Builds one spider's queue state the way the other services do: seeds and links through the
 * enqueue script, hand-outs as leases, acknowledgements, and raw {@code ZADD}s of members as a
 * Python Kafka monitor writes them (no accounting). Members are made from the fixture files of
 * both shapes (docs/compatibility.md §4.4.1).
 */
public final class QueueState {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration LEASE = Duration.ofMinutes(10);

    private final RedisConnection redis;
    private final String spider;
    private final Enqueuer enqueuer;
    private final ThrottledQueue throttle;
    private final Leases leases;
    private final AtomicLong holders = new AtomicLong();
    private final Map<String, String> leasedMembers = new ConcurrentHashMap<>();

    public QueueState(RedisConnection redis, String spider) {
        this.redis = redis;
        this.spider = spider;
        this.enqueuer = new Enqueuer(redis, false);
        this.throttle = new ThrottledQueue(redis);
        this.leases = new Leases(redis);
    }

    public String spider() {
        return spider;
    }

    /** A Kafka monitor feed item (crawl fields at the top level). */
    public String feedItem(String url, String appid, String crawlid, int priority, long expires) {
        ObjectNode item = member("feed-item.json");
        item.put("url", url).put("appid", appid).put("crawlid", crawlid).put("priority", priority).put("expires", expires)
                .put("spiderid", spider);
        return item.toString();
    }

    /** A crawler's serialized request (crawl fields inside meta). */
    public String serializedRequest(String url, String appid, String crawlid, int priority, long expires) {
        ObjectNode request = member("serialized-request.json");
        request.put("url", url);
        ((ObjectNode) request.get("meta")).put("appid", appid).put("crawlid", crawlid).put("priority", priority)
                .put("expires", expires).put("spiderid", spider);
        return request.toString();
    }

    /** Files {@code member} into the domain's queue as our Kafka monitor does a seed (timeout key included). */
    public void seed(String domain, String member) {
        EnqueueOutcome outcome = enqueuer.enqueue(EnqueueRequest.of(new QueueKey(spider, domain), member).withTimeoutKey());
        if (outcome != EnqueueOutcome.QUEUED) {
            throw new IllegalStateException("not queued: " + outcome + " " + member);
        }
    }

    /** Adds {@code member} with a plain {@code ZADD}, as a Python Kafka monitor does. */
    public void zadd(String domain, String member, int priority) {
        redis.sync().zadd(new QueueKey(spider, domain).key(), -priority, member);
    }

    /** Leases the domain's next request to a crawler for ten minutes; returns the lease id. */
    public String handOut(String domain) {
        return handOut(domain, LEASE);
    }

    /** Leases the domain's next request to a crawler for {@code lease}; returns the lease id. */
    public String handOut(String domain, Duration lease) {
        HandOut answer = throttle.handOut(new QueueKey(spider, domain),
                new ThrottleSpec(spider + ":" + domain, 60, 1_000_000, false), lease, "test-" + holders.incrementAndGet());
        if (!(answer instanceof HandOut.HandedOut handed)) {
            throw new IllegalStateException("nothing handed out of " + domain + ": " + answer);
        }
        String leaseId = handed.leaseId().orElseThrow();
        leasedMembers.put(leaseId, handed.member());
        return leaseId;
    }

    /** Acknowledges a lease, with or without a published page. */
    public void ack(String leaseId, boolean pagePublished) {
        String member = leasedMembers.remove(leaseId);
        Optional<CrawlFields> crawl = member == null ? Optional.empty() : CrawlFields.ofMember(member);
        if (!leases.ackAsync(spider, leaseId, crawl, pagePublished).join()) {
            throw new IllegalStateException("lease " + leaseId + " was not held");
        }
    }

    /**
     * The crawls of {@code appid} that {@code info-crawl.json} (crawl c1) and {@code info-app.json}
     * describe: c1 with two requests on example.com and one, handed out, on other.org, expiring
     * {@link OneMonitorTest#FAR}; c2 with two on example.com that never expire. Both member shapes.
     */
    public void seedInfoFixtureCrawls(String appid) {
        seed("example.com", feedItem("https://example.com/", appid, "c1", 1, OneMonitorTest.FAR));
        seed("example.com", serializedRequest("https://example.com/a", appid, "c1", -9, OneMonitorTest.FAR));
        seed("other.org", feedItem("https://other.org/", appid, "c1", -9, OneMonitorTest.FAR));
        seed("example.com", feedItem("https://example.com/2", appid, "c2", 5, 0));
        seed("example.com", serializedRequest("https://example.com/2/a", appid, "c2", 5, 0));
        handOut("other.org");
    }

    private static ObjectNode member(String name) {
        try {
            return (ObjectNode) MAPPER.readTree(Texts.resource("members/" + name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
