package org.scrapycluster.redismonitor.info;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCount;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The info job (docs/compatibility.md §3.5): {@code info:<spiderid>:<appid>:<crawlid>} answers what is
 * pending for one crawl, {@code info:<spiderid>:<appid>} for every crawl of an app, with the
 * original's fields. Counts include leased requests (being fetched), and come from the crawl
 * accounting, so an answer costs the number of the crawl's domains, not the backlog. A crawl or
 * app whose accounting cannot answer for it (none, or requests moved by a Python crawler or Kafka
 * monitor, which keep none: docs/operations.md "Mixed Python and Java clusters") is counted by
 * reading the spider's queues and leases, as the original does.
 */
public final class InfoMonitor implements JobPlugin {

    private static final Logger LOG = LoggerFactory.getLogger(InfoMonitor.class);
    private static final String SHAPE = "info:<spiderid>:<appid>[:<crawlid>]";

    private final PluginContext context;
    private final CrawlCounts counts;
    private final QueueScan scan;

    public InfoMonitor(PluginContext context) {
        this.context = context;
        this.counts = new CrawlCounts(context.redis());
        this.scan = new QueueScan(context.redis());
    }

    @Override
    public String name() {
        return "InfoMonitor";
    }

    @Override
    public String pattern() {
        return Keyspace.INFO_APP.glob(); // a glob's * also matches the crawl-level info:<spiderid>:<appid>:<crawlid>
    }

    @Override
    public List<Answer> handle(Job job) {
        List<String> parts = job.parts(job.parts().size() == 4 ? 4 : 3, SHAPE);
        String spiderId = parts.get(1);
        String appid = parts.get(2);
        String crawlid = parts.size() == 4 ? parts.get(3) : null;
        LoggingEventBuilder received = LOG.atInfo().addKeyValue("action", "info").addKeyValue("appid", appid)
                .addKeyValue("spiderid", spiderId).addKeyValue("uuid", job.value());
        (crawlid == null ? received : received.addKeyValue("crawlid", crawlid)).log("Received info request");
        Map<String, Object> answer = crawlid == null
                ? appInfo(job.value(), spiderId, appid)
                : crawlInfo(job.value(), new CrawlRef(spiderId, appid, crawlid));
        return List.of(new Answer(appid, answer, "Sent info to kafka"));
    }

    /** Its work depends on the key alone: requests of one key in one pass share one answer, each under its uuid. */
    @Override
    public boolean answersByKey() {
        return true;
    }

    /** The error answer: the request's uuid, appid, spiderid and crawlid with the {@code error}. */
    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        List<String> parts = job.parts();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("uuid", job.value());
        answer.put("server_time", context.serverTime());
        answer.put("appid", parts.get(2));
        answer.put("spiderid", parts.get(1));
        if (parts.size() == 4) {
            answer.put("crawlid", parts.get(3));
        }
        answer.put("error", error);
        return Optional.of(new Answer(parts.get(2), answer, "Sent info error to kafka"));
    }

    private Map<String, Object> crawlInfo(String uuid, CrawlRef crawl) {
        CrawlCount count = counts.trusted(crawl).or(() -> scan.crawl(crawl))
                .orElseGet(() -> new CrawlCount(crawl, Map.of(), 0, 0, 0, Optional.empty()));
        String expires = context.redis().sync().get(crawl.timeoutKey());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("uuid", uuid);
        answer.put("total_pending", count.pending());
        answer.put("server_time", context.serverTime());
        answer.put("total_domains", count.totalDomains());
        answer.put("appid", crawl.appid());
        answer.put("crawlid", crawl.crawlid());
        answer.put("spiderid", crawl.spiderId());
        answer.put("domains", domains(count));
        if (expires != null) {
            answer.put("expires", expires);
        }
        return answer;
    }

    private Map<String, Object> appInfo(String uuid, String spiderId, String appid) {
        List<CrawlCount> accounted = counts.trustedApp(spiderId, appid).orElse(List.of());
        List<CrawlCount> crawls = accounted.isEmpty()
                ? scan.app(spiderId, appid)
                : accounted.stream().filter(count -> count.pending() > 0).toList();
        Map<String, Object> crawlids = new LinkedHashMap<>();
        Set<String> domains = new TreeSet<>();
        long pending = 0;
        for (CrawlCount count : crawls) {
            Map<String, Object> crawl = new LinkedHashMap<>();
            crawl.put("total", count.pending());
            crawl.put("domains", domains(count));
            crawl.put("distinct_domains", count.totalDomains());
            if (count.expires() != 0) {
                crawl.put("expires", count.expires());
            }
            crawlids.put(count.crawl().crawlid(), crawl);
            domains.addAll(count.domains().keySet());
            pending += count.pending();
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("uuid", uuid);
        answer.put("total_pending", pending);
        answer.put("server_time", context.serverTime());
        answer.put("total_crawlids", crawlids.size());
        answer.put("total_domains", domains.size());
        answer.put("crawlids", crawlids);
        answer.put("appid", appid);
        answer.put("spiderid", spiderId);
        return answer;
    }

    private static Map<String, Object> domains(CrawlCount count) {
        Map<String, Object> domains = new LinkedHashMap<>();
        count.domains().forEach((domain, requests) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("total", requests.total());
            entry.put("high_priority", requests.highPriority());
            entry.put("low_priority", requests.lowPriority());
            domains.put(domain, entry);
        });
        return domains;
    }
}
