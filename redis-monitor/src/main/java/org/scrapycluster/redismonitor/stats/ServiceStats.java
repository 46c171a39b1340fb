package org.scrapycluster.redismonitor.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * The statistics of one service (the original's "plugin stats", docs/compatibility.md §3.8) from its
 * keys named {@code stats:<service>:*}, in either form ({@link StatsValues#keys}): {@code total} and {@code fail} by window, {@code plugins} by
 * plugin and window, and {@code nodes}, the live processes by host (their heartbeats
 * {@code stats:<service>:self:<host>:<uuid12>}). A section with no keys is left out.
 */
final class ServiceStats {

    private final StatsValues values;

    ServiceStats(StatsValues values) {
        this.values = values;
    }

    /** The sections of {@code service} ({@code kafka-monitor}, {@code redis-monitor}, {@code rest}). */
    Map<String, Object> of(String service) {
        Map<String, List<String>> nodes = new TreeMap<>();
        Map<String, Map<String, Long>> totals = new LinkedHashMap<>();
        Map<String, Map<String, Long>> plugins = new TreeMap<>();
        for (String key : values.keys(Keyspace.SERVICE_STATS.glob(service))) {
            String[] parts = key.split(":", -1);
            if (parts.length < 4) {
                continue;
            }
            String main = parts[2];
            String end = parts[3];
            if (main.equals("self")) {
                if (parts.length == 5) {
                    nodes.computeIfAbsent(end, host -> new ArrayList<>()).add(parts[4]);
                }
            } else if (parts.length == 4) {
                Map<String, Map<String, Long>> section = main.equals("total") || main.equals("fail") ? totals : plugins;
                values.value(key, end).ifPresent(value ->
                        section.computeIfAbsent(main, name -> new TreeMap<>(StatsValues.WINDOW_ORDER)).put(end, value));
            }
        }
        Map<String, Object> sections = new LinkedHashMap<>();
        if (!nodes.isEmpty()) {
            nodes.values().forEach(list -> list.sort(null));
            sections.put("nodes", nodes);
        }
        for (String main : List.of("total", "fail")) {
            if (totals.containsKey(main)) {
                sections.put(main, totals.get(main));
            }
        }
        if (!plugins.isEmpty()) {
            sections.put("plugins", plugins);
        }
        return sections;
    }
}
