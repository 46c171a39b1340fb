package org.scrapycluster.rest.live;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.common.stats.RollingWindowCounter;

/**
 * The rate series of the UI's charts and the nodes' rates, from the rolling-window counters the
 * services keep (docs/architecture.md "Statistics"): each window is a HASH of 60 time buckets at
 * {@code buckets:<window name>}, plus what the window's own name holds (the original's sorted set of events,
 * counted into the same buckets, or an earlier build's HASH), so a counter's history over
 * a span is the buckets of its smallest window that covers the span (a
 * 900 s window gives 15 s points for the 5 minute chart, 3600 s gives minutes for the hour, a day
 * gives 24 minute points; a window smaller than the span, the largest there is, is merged into at
 * most {@value #MAX_POINTS} points). Crawler responses are summed over hosts and spiders by status class;
 * 504, which also counts every failed download attempt, is its own series, {@code errors}. Crawlers count only the
 * codes of {@code STATS_RESPONSE_CODES}: a series none of whose codes is counted is null, not a row of zeros.
 */
final class ResponseCharts {

    /** The spans the UI offers, by name, in seconds. */
    static final Map<String, Long> SPANS = spans();

    private static final List<String> SERIES = List.of("2xx", "3xx", "4xx", "5xx", "errors");
    private static final long RATE_SPAN = 60;
    private static final long MAX_POINTS = 300;

    private final Map<String, ObjectNode> charts = new LinkedHashMap<>();
    private final Map<String, Double> rates = new HashMap<>();
    private final SortedSet<Integer> codes;

    private ResponseCharts(SortedSet<Integer> codes) {
        this.codes = Collections.unmodifiableSortedSet(codes);
    }

    /**
     * Reads the buckets of {@code counters} and builds every span's series and every counter's rate.
     *
     * @param configured the status codes the crawlers are configured to count; those of the counters found are
     *                   counted too (a crawler configured otherwise than this gateway)
     */
    static ResponseCharts read(RedisConnection redis, List<StatsKey> counters, Set<Integer> configured, long nowSecond) {
        SortedSet<Integer> codes = new TreeSet<>(configured);
        Map<String, TreeMap<Long, StatsKey>> windows = new TreeMap<>();
        for (StatsKey key : counters) {
            if (key.responses()) {
                codes.add(key.status());
            }
            windows.computeIfAbsent(key.counter(), name -> new TreeMap<>()).put(key.window(), key);
        }
        // the window's own name (a Python component's sorted set, or an earlier build's HASH) and our HASH of buckets
        Map<StatsKey, CompletionStage<Map<String, String>>> reads = new HashMap<>();
        Map<StatsKey, CompletionStage<Map<String, String>>> ours = new HashMap<>();
        Map<String, Map<Long, StatsKey>> chosen = new LinkedHashMap<>();
        for (Map.Entry<String, TreeMap<Long, StatsKey>> counter : windows.entrySet()) {
            Map<Long, StatsKey> bySpan = new HashMap<>();
            for (long span : SPANS.values()) {
                Map.Entry<Long, StatsKey> covering = counter.getValue().ceilingEntry(span);
                bySpan.put(span, covering != null ? covering.getValue() : counter.getValue().lastEntry().getValue());
            }
            bySpan.put(RATE_SPAN, counter.getValue().firstEntry().getValue());
            chosen.put(counter.getKey(), bySpan);
            for (StatsKey key : bySpan.values()) {
                reads.computeIfAbsent(key, chosenKey -> redis.async().hgetall(chosenKey.key()));
                ours.computeIfAbsent(key, chosenKey -> redis.async().hgetall(Keyspace.statsBuckets(chosenKey.key())));
            }
        }
        Map<String, Map<Long, Long>> buckets = new HashMap<>();
        Map<String, CompletableFuture<Map<Long, Long>>> eventWindows = new HashMap<>();
        reads.forEach((key, read) -> {
            Map<Long, Long> counts = new HashMap<>(hashBuckets(redis, ours.get(key)));
            buckets.put(key.key(), counts);
            Map<String, String> atName = RedisErrors.unlessWrongType(() -> redis.await(read), null);
            if (atName != null) {
                numbers(atName).forEach((start, count) -> counts.merge(start, count, Long::sum));
            } else {
                // the original's sorted set of events (STATS_ORIGINAL_KEYS, or a Python component)
                eventWindows.put(key.key(), new RollingWindowCounter(key.key(), key.window()).eventsByBucketAsync(redis, nowSecond));
            }
        });
        eventWindows.forEach((key, events) -> RedisErrors.unlessWrongType(() -> redis.await(events), Map.<Long, Long>of())
                .forEach((start, count) -> buckets.get(key).merge(start, count, Long::sum)));

        ResponseCharts result = new ResponseCharts(codes);
        SPANS.forEach((name, span) -> result.charts.put(name, result.chart(span, chosen, buckets, nowSecond)));
        chosen.forEach((counter, bySpan) -> {
            StatsKey key = bySpan.get(RATE_SPAN);
            result.rates.put(counter, rate(buckets.get(key.key()), bucketSeconds(key.window()), nowSecond));
        });
        return result;
    }

    /** The status codes counted: those configured and those of every crawler counter found. */
    SortedSet<Integer> codes() {
        return codes;
    }

    /** The chart of {@code name} (a key of {@link #SPANS}). */
    ObjectNode chart(String name) {
        return charts.get(name);
    }

    /**
     * Events a second over about the last minute of the counter {@code counter}
     * ({@code stats:kafka-monitor:total}) and the counters under it ({@code stats:crawler:<host>:<spider>}
     * sums its status codes); empty when there is none.
     */
    OptionalDouble rate(String counter) {
        double[] sum = {0};
        boolean[] found = {false};
        rates.forEach((name, rate) -> {
            if (name.equals(counter) || name.startsWith(counter + ":")) {
                sum[0] += rate;
                found[0] = true;
            }
        });
        return found[0] ? OptionalDouble.of(Math.round(sum[0] * 1000) / 1000.0) : OptionalDouble.empty();
    }

    private ObjectNode chart(long span, Map<String, Map<Long, StatsKey>> chosen, Map<String, Map<Long, Long>> buckets, long now) {
        long finest = chosen.values().stream().map(bySpan -> bySpan.get(span)).filter(StatsKey::responses)
                .mapToLong(key -> bucketSeconds(key.window())).min().orElse(Math.max(1, span / 60));
        // a window finer than the span needs (no window of STATS_TIMES covers it) is merged into coarser buckets
        long bucket = finest * Math.ceilDiv(span, finest * MAX_POINTS);
        long first = Math.floorDiv(now - span, bucket) * bucket + bucket;
        int points = (int) ((Math.floorDiv(now, bucket) * bucket - first) / bucket) + 1;
        Map<String, long[]> counts = new LinkedHashMap<>();
        SERIES.forEach(series -> counts.put(series, codes.stream().anyMatch(code -> series.equals(seriesOf(code))) ? new long[points] : null));
        for (Map<Long, StatsKey> bySpan : chosen.values()) {
            StatsKey key = bySpan.get(span);
            if (!key.responses()) {
                continue;
            }
            long[] series = counts.get(seriesOf(key.status()));
            if (series == null) {
                continue;
            }
            buckets.get(key.key()).forEach((start, count) -> {
                long index = (Math.floorDiv(start, bucket) * bucket - first) / bucket;
                if (index >= 0 && index < points) {
                    series[(int) index] += count;
                }
            });
        }
        ObjectNode chart = JsonNodeFactory.instance.objectNode();
        chart.put("span_seconds", span);
        chart.put("bucket_seconds", bucket);
        ArrayNode times = chart.putArray("t");
        for (int i = 0; i < points; i++) {
            times.add(first + i * bucket);
        }
        counts.forEach((name, series) -> {
            if (series == null) {
                // no code of the class is counted: no crawler says how many there were
                chart.putNull(name);
                return;
            }
            ArrayNode values = chart.putArray(name);
            for (int i = 0; i < points; i++) {
                // the current bucket is still filling: its rate is over the seconds it has had so far
                long seconds = i == points - 1 ? Math.max(1, now - (first + i * bucket) + 1) : bucket;
                values.add(Math.round(series[i] * 1000.0 / seconds) / 1000.0);
            }
        });
        return chart;
    }

    private static String seriesOf(int status) {
        if (status == CountedStatusCodes.FAILED_DOWNLOAD) {
            return "errors";
        }
        int type = status / 100;
        return type >= 2 && type <= 5 ? type + "xx" : null;
    }

    private static double rate(Map<Long, Long> buckets, long bucket, long now) {
        long since = Math.floorDiv(now - RATE_SPAN, bucket) * bucket;
        long events = buckets.entrySet().stream().filter(entry -> entry.getKey() >= since).mapToLong(Map.Entry::getValue).sum();
        return Math.round(events * 1000.0 / Math.max(1, now - since)) / 1000.0;
    }

    private static long bucketSeconds(long window) {
        return Math.max(1, window / 60);
    }

    private static Map<Long, Long> hashBuckets(RedisConnection redis, CompletionStage<Map<String, String>> read) {
        return numbers(RedisErrors.unlessWrongType(() -> redis.await(read), Map.of()));
    }

    private static Map<Long, Long> numbers(Map<String, String> fields) {
        Map<Long, Long> numbers = new HashMap<>();
        fields.forEach((start, count) -> {
            try {
                numbers.merge(Long.parseLong(start), Long.parseLong(count), Long::sum);
            } catch (NumberFormatException e) {
                // not a bucket of ours: ignored, as StatsReader does
            }
        });
        return numbers;
    }

    private static Map<String, Long> spans() {
        Map<String, Long> spans = new LinkedHashMap<>();
        spans.put("5m", 300L);
        spans.put("1h", 3_600L);
        spans.put("24h", 86_400L);
        return Collections.unmodifiableMap(spans);
    }
}
