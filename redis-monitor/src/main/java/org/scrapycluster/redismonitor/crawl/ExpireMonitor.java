package org.scrapycluster.redismonitor.crawl;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.job.RejectedJobException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The expire job (docs/compatibility.md §3.7), {@code timeout:<spiderid>:<appid>:<crawlid>} holding the
 * crawl's {@code expires} epoch: once the clock has passed it, blacklists the crawl, removes its
 * queued and leased requests and announces
 * {@code {"server_time","crawlid","spiderid","appid","total_expired","action":"expired"}} (no
 * uuid: nobody asked). The key is deleted with the job.
 */
public final class ExpireMonitor implements JobPlugin {

    private static final Logger LOG = LoggerFactory.getLogger(ExpireMonitor.class);
    private static final String SHAPE = "timeout:<spiderid>:<appid>:<crawlid>";

    private final PluginContext context;
    private final CrawlStopper stopper;

    public ExpireMonitor(PluginContext context) {
        this.context = context;
        this.stopper = new CrawlStopper(context.redis());
    }

    @Override
    public String name() {
        return "ExpireMonitor";
    }

    @Override
    public String pattern() {
        return Keyspace.TIMEOUT.glob();
    }

    /** Due once {@code now > expires}; a value that is not a number is due at once, to be rejected. */
    @Override
    public boolean isDue(Job job, Instant now) {
        return expires(job).map(expires -> new BigDecimal(now.getEpochSecond()).add(BigDecimal.valueOf(now.getNano(), 9))
                .compareTo(expires) > 0).orElse(true);
    }

    @Override
    public List<Answer> handle(Job job) {
        List<String> parts = job.parts(4, SHAPE);
        if (expires(job).isEmpty()) {
            throw new RejectedJobException("The timeout key " + job.key() + " holds '" + job.value() + "', not an epoch");
        }
        CrawlRef crawl = new CrawlRef(parts.get(1), parts.get(2), parts.get(3));
        LOG.atInfo().addKeyValue("action", "expired").addKeyValue("appid", crawl.appid()).addKeyValue("spiderid", crawl.spiderId())
                .addKeyValue("crawlid", crawl.crawlid()).log("Expiring crawl found");
        long expired = stopper.stop(crawl);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("server_time", context.serverTime());
        answer.put("crawlid", crawl.crawlid());
        answer.put("spiderid", crawl.spiderId());
        answer.put("appid", crawl.appid());
        answer.put("total_expired", expired);
        answer.put("action", "expired");
        return List.of(new Answer(crawl.appid(), answer, "Sent expired ack to kafka"));
    }

    /** The expired announcement with the {@code error} in place of {@code total_expired}. */
    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        List<String> parts = job.parts();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("server_time", context.serverTime());
        answer.put("crawlid", String.join(":", parts.subList(3, parts.size())));
        answer.put("spiderid", parts.get(1));
        answer.put("appid", parts.get(2));
        answer.put("action", "expired");
        answer.put("error", error);
        return Optional.of(new Answer(parts.get(2), answer, "Sent expired error to kafka"));
    }

    private static Optional<BigDecimal> expires(Job job) {
        try {
            return Optional.of(new BigDecimal(job.value().trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
