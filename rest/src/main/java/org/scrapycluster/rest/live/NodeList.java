package org.scrapycluster.rest.live;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lettuce.core.KeyValue;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Every service instance that beats (docs/architecture.md "Statistics": a heartbeat key holds the
 * epoch seconds of its last beat): service, host, id, spider, the age of its last beat, how long
 * this gateway has seen it (no key records a start time), its rate and whether it is stale (no beat
 * for {@code LIVE_NODE_STALE_SECONDS}; a node that stops for good disappears once its key expires). A crawler's
 * rate is that of the status codes its host counts ({@code STATS_RESPONSE_CODES}): no key counts all its responses.
 * Used on the live view's refresh thread only.
 */
final class NodeList {

    private final long staleMillis;
    private final Map<String, Long> firstSeen = new HashMap<>();

    NodeList(long staleMillis) {
        this.staleMillis = staleMillis;
    }

    /** The rows of {@code heartbeats}, ordered by service, host and id. */
    ArrayNode read(RedisConnection redis, List<StatsKey> unordered, ResponseCharts rates, long nowMillis) {
        List<StatsKey> heartbeats = unordered.stream().sorted(Comparator.comparing(StatsKey::service)
                .thenComparing(StatsKey::host).thenComparing(StatsKey::nodeId)).toList();
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        Set<String> present = new HashSet<>();
        String crawlerRateOf = "responses/s on this host with status " + rates.codes().stream().map(String::valueOf)
                .collect(Collectors.joining(", ")) + " only (STATS_RESPONSE_CODES; 504 also counts failed downloads)";
        if (!heartbeats.isEmpty()) {
            List<KeyValue<String, String>> beats = redis.sync().mget(heartbeats.stream().map(StatsKey::key).toArray(String[]::new));
            for (int i = 0; i < heartbeats.size(); i++) {
                StatsKey key = heartbeats.get(i);
                KeyValue<String, String> beat = beats.get(i);
                if (!beat.hasValue()) {
                    continue;
                }
                long beatMillis;
                try {
                    beatMillis = Math.round(Double.parseDouble(beat.getValue()) * 1000);
                } catch (NumberFormatException e) {
                    continue;
                }
                present.add(key.key());
                long seen = firstSeen.computeIfAbsent(key.key(), name -> Math.min(nowMillis, beatMillis));
                ObjectNode row = rows.addObject();
                row.put("service", key.service());
                row.put("host", key.host());
                row.put("id", key.nodeId());
                row.put("spider", key.spider());
                row.put("heartbeat_age_seconds", Math.max(0, nowMillis - beatMillis) / 1000.0);
                row.put("seen_seconds", (nowMillis - seen) / 1000);
                row.put("stale", nowMillis - beatMillis > staleMillis);
                OptionalDouble rate = key.service().equals("crawler") ? rates.rate(Keyspace.CRAWLER_COUNTERS.fill(key.host(), key.spider()))
                        : rates.rate(Keyspace.SERVICE_STATS.fill(key.service(), "total"));
                if (rate.isPresent()) {
                    row.put("rate", rate.getAsDouble());
                    row.put("rate_of", switch (key.service()) {
                        case "crawler" -> crawlerRateOf;
                        case "redis-monitor" -> "jobs/s, all nodes";
                        default -> "requests/s, all nodes";
                    });
                } else {
                    row.putNull("rate");
                }
            }
        }
        firstSeen.keySet().retainAll(present);
        return rows;
    }
}
