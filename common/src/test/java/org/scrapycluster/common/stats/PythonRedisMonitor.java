package org.scrapycluster.common.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.scrapycluster.common.redis.RedisConnection;

/**
 * Answers a stats request for one service's keys as the Python original's Redis monitor does
 * (docs/operations.md "What a Python process does to Redis"): {@code KEYS stats:<service>:*}, and
 * for each key {@code stats:<service>:<main>:<end>[:<uuid>]} the value {@code PFCOUNT} when
 * {@code end} is {@code lifetime}, else {@code ZCARD}; {@code total} and {@code fail} go to their
 * own sections, {@code self} (heartbeats) to {@code nodes}, anything else to {@code plugins}. A
 * window stored as anything but a sorted set fails the request with {@code WRONGTYPE}, as it does there.
 */
final class PythonRedisMonitor {

    private final RedisConnection redis;

    /** Its own connection, as a separate process has. */
    PythonRedisMonitor(RedisConnection redis) {
        this.redis = redis;
    }

    /** The sections of a stats answer for {@code service}: "total", "fail", "plugins" and "nodes", those that have keys. */
    Map<String, Object> pluginStats(String service) {
        Map<String, Object> answer = new TreeMap<>();
        for (String key : redis.sync().keys("stats:" + service + ":*")) {
            String[] parts = key.split(":");
            String main = parts[2];
            String end = parts[3];
            if (main.equals("self")) {
                nodes(answer).computeIfAbsent(end, host -> new ArrayList<>()).add(parts[4]);
                continue;
            }
            long value = end.equals("lifetime") ? redis.sync().pfcount(key) : redis.sync().zcard(key);
            if (main.equals("total") || main.equals("fail")) {
                section(answer, main).put(end, value);
            } else {
                section(answer, "plugins").computeIfAbsent(main, plugin -> new TreeMap<String, Long>());
                @SuppressWarnings("unchecked")
                Map<String, Long> plugin = (Map<String, Long>) section(answer, "plugins").get(main);
                plugin.put(end, value);
            }
        }
        return answer;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> answer, String name) {
        return (Map<String, Object>) answer.computeIfAbsent(name, n -> new TreeMap<String, Object>());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> nodes(Map<String, Object> answer) {
        return (Map<String, List<String>>) answer.computeIfAbsent("nodes", n -> new TreeMap<String, List<String>>());
    }
}
