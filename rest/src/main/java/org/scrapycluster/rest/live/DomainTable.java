package org.scrapycluster.rest.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lettuce.core.Range;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The busiest domains: their backlog (pending requests of the active crawls), their throttle (the
 * ZooKeeper domain config's {@code hits} / {@code window} / {@code scale}, else {@code QUEUE_HITS}
 * per {@code QUEUE_WINDOW}) and their state, judged from the throttle keys the crawlers keep
 * (docs/throttling.md): {@code blacklisted} (in the ZooKeeper blacklist), {@code paused} (a throttle whose limit,
 * {@code hits} × {@code scale} cut to a whole number, lets nothing through), {@code backing off} (a
 * {@code <throttlekey>:throttle_pause} left by a 429, a 503 with Retry-After or the robots.txt check), {@code throttled}
 * (as many hand-outs in the window as the limit allows), {@code ready} (work waiting) or
 * {@code idle}. With throttling by IP or by spider type a domain has several throttle keys; the
 * fullest one decides. Of the throttle keys the live view's last pass over the keyspace found, only those of the domains
 * judged (with a backlog, or listed) are read: a broad crawl has throttle keys for many more domains than have work. A
 * throttle window of another type is left out and logged once (docs/operations.md "Keys Redis refuses").
 */
final class DomainTable {

    private static final String WINDOW = Keyspace.THROTTLE_WINDOW.suffix();
    private static final String PAUSE = Keyspace.THROTTLE_PAUSE.suffix();

    private static final Logger LOG = LoggerFactory.getLogger(DomainTable.class);

    private final int maxDomains;
    private final RefusedKeys refused = new RefusedKeys(LOG, "The live view");
    private final long defaultHits;
    private final double defaultWindow;

    DomainTable(int maxDomains, long defaultHits, double defaultWindow) {
        this.maxDomains = maxDomains;
        this.defaultHits = defaultHits;
        this.defaultWindow = defaultWindow;
    }

    /** What one refresh found. */
    record Reading(ArrayNode rows, int waiting) {
    }

    /**
     * @param throttleKeys the throttle windows and pauses of the keyspace, as the last pass over it found them
     * @param backlog      the pending requests by domain
     */
    Reading read(RedisConnection redis, List<String> throttleKeys, Map<String, Long> backlog, DomainConfig config, long nowMillis) {
        Set<String> blacklist = new LinkedHashSet<>(config.blacklist().orElse(List.of()));
        Set<String> domains = new LinkedHashSet<>();
        List<String> busiest = new ArrayList<>(backlog.keySet());
        busiest.sort(Comparator.comparing((String domain) -> -backlog.get(domain)).thenComparing(domain -> domain));
        busiest.stream().limit(maxDomains).forEach(domains::add);
        config.throttles().keySet().stream().limit(maxDomains).forEach(domains::add);
        blacklist.stream().limit(maxDomains).forEach(domains::add);
        Set<String> judged = new HashSet<>(backlog.keySet());
        judged.addAll(domains);

        Map<String, CompletionStage<Long>> used = new HashMap<>();
        Map<String, CompletionStage<Long>> paused = new HashMap<>();
        for (String key : throttleKeys) {
            if (key.endsWith(WINDOW) && judged.contains(domainOf(key, WINDOW))) {
                String domain = domainOf(key, WINDOW);
                Range<Double> inWindow = Range.create(nowMillis / 1000.0 - throttle(config, domain).window(), Double.POSITIVE_INFINITY);
                used.put(key, redis.async().zcount(key, inWindow));
            } else if (key.endsWith(PAUSE) && judged.contains(domainOf(key, PAUSE))) {
                paused.put(key, redis.async().pttl(key));
            }
        }
        Map<String, Long> usedByDomain = new HashMap<>();
        used.forEach((key, count) -> refused.await(redis, key, count)
                .ifPresent(hits -> usedByDomain.merge(domainOf(key, WINDOW), hits, Math::max)));
        Map<String, Long> pauseByDomain = new HashMap<>();
        paused.forEach((key, ttl) -> {
            long millis = redis.await(ttl);
            if (millis > 0) {
                pauseByDomain.merge(domainOf(key, PAUSE), millis, Math::max);
            }
        });

        int waiting = 0;
        for (String domain : backlog.keySet()) {
            String state = state(domain, throttle(config, domain), backlog, usedByDomain, pauseByDomain, blacklist);
            if (backlog.get(domain) > 0 && (state.equals("throttled") || state.equals("backing off") || state.equals("paused"))) {
                waiting++;
            }
        }

        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (String domain : domains) {
            Throttle throttle = throttle(config, domain);
            ObjectNode row = rows.addObject();
            row.put("domain", domain);
            row.put("backlog", backlog.getOrDefault(domain, 0L));
            row.put("throttle_source", throttle.source());
            row.putPOJO("hits", DomainConfigYaml.asWritten(throttle.hits())); // 10, or 2.5 as a hand-written config may say
            row.put("window", throttle.window());
            if (throttle.scale() != null) {
                row.put("scale", throttle.scale());
            } else {
                row.putNull("scale");
            }
            row.put("limit", throttle.limit());
            row.put("used", usedByDomain.getOrDefault(domain, 0L));
            row.put("state", state(domain, throttle, backlog, usedByDomain, pauseByDomain, blacklist));
            row.put("pause_seconds", pauseByDomain.getOrDefault(domain, 0L) / 1000.0);
        }
        return new Reading(rows, waiting);
    }

    private static String state(String domain, Throttle throttle, Map<String, Long> backlog, Map<String, Long> used,
            Map<String, Long> paused, Set<String> blacklist) {
        if (blacklist.contains(domain)) {
            return "blacklisted";
        }
        if (throttle.limit() <= 0) {
            return "paused"; // by its throttle (docs/throttling.md)
        }
        if (paused.containsKey(domain)) {
            return "backing off";
        }
        if (used.getOrDefault(domain, 0L) >= throttle.limit()) {
            return "throttled";
        }
        return backlog.getOrDefault(domain, 0L) > 0 ? "ready" : "idle";
    }

    /** A domain's throttle as the crawlers apply it, and where it comes from. */
    private record Throttle(String source, double hits, double window, Double scale, long limit) {
    }

    private Throttle throttle(DomainConfig config, String domain) {
        DomainThrottle entry = config.throttles().get(domain);
        if (entry != null && entry.applies()) {
            return new Throttle("zookeeper", entry.hits().getAsDouble(), entry.appliedWindow(),
                    DomainThrottle.fitScale(entry.scale().orElse(1.0)), entry.effectiveHits());
        }
        return new Throttle("default", defaultHits, defaultWindow, null, defaultHits);
    }

    /**
     * The domain of a throttle key's window or pause: the key's last part, after the spider and the IP it may start
     * with; an IPv6 host's domain ({@code [2001:db8::1].}) holds colons of its own.
     */
    static String domainOf(String key, String suffix) {
        String throttleKey = key.substring(0, key.length() - suffix.length());
        int bracket = throttleKey.endsWith("].") ? throttleKey.lastIndexOf('[') : -1;
        return bracket >= 0 ? throttleKey.substring(bracket) : throttleKey.substring(throttleKey.lastIndexOf(':') + 1);
    }
}
