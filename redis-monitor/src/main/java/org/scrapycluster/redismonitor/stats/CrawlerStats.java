package org.scrapycluster.redismonitor.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.scrapycluster.common.keyspace.CrawlerStatKey;
import org.scrapycluster.common.keyspace.Keyspace;

/**
 * The crawlers' statistics (docs/compatibility.md §3.8) from the keys named {@code stats:crawler:*:*:*}, in either form
 * ({@link StatsValues#keys}):
 * status-code counts {@code stats:crawler:<host>:<spider>:<code>:<window>} and node heartbeats
 * {@code stats:crawler:<host>:<spider>:<uuid12>}, by spider ({@code spiders}) and by machine
 * ({@code machines}). Counts of one spider, code and window on several hosts are summed (the
 * original let the last host read overwrite the others, docs/compatibility.md W8), as they are for machines.
 */
final class CrawlerStats {

    private static final Logger LOG = LoggerFactory.getLogger(CrawlerStats.class);

    private final StatsValues values;

    CrawlerStats(StatsValues values) {
        this.values = values;
    }

    /**
     * The two sections.
     *
     * @param spiders  {@code {<spider>: {count, <code>: {<window>: n}}, unique_spider_count, total_spider_count}}
     * @param machines {@code {<host>: {<code>: {<window>: n}}, count}}
     */
    record Sections(Map<String, Object> spiders, Map<String, Object> machines) {
    }

    Sections read() {
        Map<String, Map<String, Object>> spiders = new TreeMap<>();
        Map<String, Map<String, Object>> machines = new TreeMap<>();
        Set<String> liveSpiders = new TreeSet<>();
        long heartbeats = 0;
        for (String key : values.keys(Keyspace.CRAWLER_STATS.glob())) {
            Optional<CrawlerStatKey> parsed = CrawlerStatKey.parse(key);
            if (parsed.isEmpty()) {
                LOG.warn("Unknown crawler stat key {}", key);
                continue;
            }
            CrawlerStatKey stat = parsed.get();
            Map<String, Object> bySpider = spiders.computeIfAbsent(stat.spider(), name -> newSpider());
            if (stat.heartbeat()) {
                bySpider.merge("count", 1L, (a, b) -> (Long) a + (Long) b);
                liveSpiders.add(stat.spider());
                heartbeats++;
                continue;
            }
            values.value(key, stat.window()).ifPresent(value -> {
                add(bySpider, stat.code(), stat.window(), value);
                add(machines.computeIfAbsent(stat.host(), name -> new TreeMap<>()), stat.code(), stat.window(), value);
            });
        }
        Map<String, Object> spiderSection = new LinkedHashMap<>(spiders);
        spiderSection.put("unique_spider_count", liveSpiders.size());
        spiderSection.put("total_spider_count", heartbeats);
        Map<String, Object> machineSection = new LinkedHashMap<>(machines);
        machineSection.put("count", machines.size());
        return new Sections(spiderSection, machineSection);
    }

    private static Map<String, Object> newSpider() {
        Map<String, Object> spider = new LinkedHashMap<>();
        spider.put("count", 0L);
        return spider;
    }

    @SuppressWarnings("unchecked")
    private static void add(Map<String, Object> section, String code, String window, long value) {
        Map<String, Long> windows = (Map<String, Long>) section.computeIfAbsent(code, c -> new TreeMap<>(StatsValues.WINDOW_ORDER));
        windows.merge(window, value, Long::sum);
    }
}
