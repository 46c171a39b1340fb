package org.scrapycluster.redismonitor.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.common.stats.StatsReader;
import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.job.RejectedJobException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stats job (docs/compatibility.md §3.8), {@code statsrequest:<stats>:<appid>}: gathers the sections
 * of the type asked for — {@code kafka-monitor}, {@code redis-monitor}, {@code rest} (a service's
 * counters and nodes), {@code spider}, {@code machine}, {@code queue}, {@code crawler} (spiders,
 * machines and {@code queue}, singular as in the original's code) or {@code all} — and answers
 * them with {@code stats}, {@code appid}, {@code uuid} and {@code server_time}. Keys are found with
 * {@code SCAN}; an unknown type is answered with an {@code error}.
 */
public final class StatsMonitor implements JobPlugin {

    private static final Logger LOG = LoggerFactory.getLogger(StatsMonitor.class);

    private final PluginContext context;
    private final ServiceStats services;
    private final CrawlerStats crawlers;
    private final QueueStats queues;

    public StatsMonitor(PluginContext context) {
        this.context = context;
        StatsKeys keys = new StatsKeys(context.redis(), StopBudget.MONOTONIC);
        StatsValues values = new StatsValues(new StatsReader(context.redis(), context.clock()), keys);
        this.services = new ServiceStats(values);
        this.crawlers = new CrawlerStats(values);
        this.queues = new QueueStats(context.redis(), keys);
    }

    @Override
    public String name() {
        return "StatsMonitor";
    }

    @Override
    public String pattern() {
        return Keyspace.STATS_REQUEST.glob();
    }

    @Override
    public List<Answer> handle(Job job) {
        List<String> parts = job.parts(3, "statsrequest:<stats>:<appid>");
        String stats = parts.get(1);
        String appid = parts.get(2);
        LOG.atInfo().addKeyValue("action", "stats").addKeyValue("appid", appid).addKeyValue("uuid", job.value())
                .log("Received {} stats request", stats);
        Map<String, Object> answer = new LinkedHashMap<>(sections(stats));
        answer.put("stats", stats);
        answer.put("appid", appid);
        answer.put("uuid", job.value());
        answer.put("server_time", context.serverTime());
        return List.of(new Answer(appid, answer, "Sent stats to kafka"));
    }

    /** Its work depends on the key alone: requests of one key in one pass share one answer, each under its uuid. */
    @Override
    public boolean answersByKey() {
        return true;
    }

    /** The stats answer's identification with the {@code error}. */
    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        List<String> parts = job.parts();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("stats", parts.get(1));
        answer.put("appid", parts.get(2));
        answer.put("uuid", job.value());
        answer.put("server_time", context.serverTime());
        answer.put("error", error);
        return Optional.of(new Answer(parts.get(2), answer, "Sent stats error to kafka"));
    }

    private Map<String, Object> sections(String stats) {
        return switch (stats) {
            case "kafka-monitor", "redis-monitor", "rest" -> services.of(stats);
            case "spider" -> Map.of("spiders", crawlers.read().spiders());
            case "machine" -> Map.of("machines", crawlers.read().machines());
            case "queue" -> Map.of("queues", queues.read(true));
            case "crawler" -> crawler();
            case "all" -> {
                Map<String, Object> all = new LinkedHashMap<>();
                all.put("kafka-monitor", services.of("kafka-monitor"));
                all.put("redis-monitor", services.of("redis-monitor"));
                all.put("crawler", crawler());
                all.put("rest", services.of("rest"));
                yield all;
            }
            default -> throw new RejectedJobException("Unknown stats type '" + stats
                    + "'; one of all, kafka-monitor, redis-monitor, crawler, spider, machine, queue, rest");
        };
    }

    private Map<String, Object> crawler() {
        CrawlerStats.Sections sections = crawlers.read();
        Map<String, Object> crawler = new LinkedHashMap<>();
        crawler.put("spiders", sections.spiders());
        crawler.put("machines", sections.machines());
        crawler.put("queue", queues.read(true));
        return crawler;
    }
}
