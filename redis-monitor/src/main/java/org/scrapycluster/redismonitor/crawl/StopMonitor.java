package org.scrapycluster.redismonitor.crawl;

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
 * The stop job (docs/compatibility.md §3.6), {@code stop:<spiderid>:<appid>:<crawlid>}: blacklists the
 * crawl, removes its queued and leased requests, deletes its timeout key and answers
 * {@code {"action":"stop","spiderid","appid","crawlid","total_purged","uuid","server_time"}},
 * {@code total_purged} counting the requests that will not be crawled (a leased one is being fetched, and its page still
 * comes). A stop without crawlid is answered with an {@code error}
 * (the original answered nothing).
 */
public final class StopMonitor implements JobPlugin {

    private static final Logger LOG = LoggerFactory.getLogger(StopMonitor.class);
    static final String NEEDS_CRAWLID = "Stop requests need a crawlid and appid";

    private final PluginContext context;
    private final CrawlStopper stopper;

    public StopMonitor(PluginContext context) {
        this.context = context;
        this.stopper = new CrawlStopper(context.redis());
    }

    @Override
    public String name() {
        return "StopMonitor";
    }

    @Override
    public String pattern() {
        return Keyspace.STOP_APP.glob(); // a glob's * also matches stop:<spiderid>:<appid>:<crawlid>
    }

    @Override
    public List<Answer> handle(Job job) {
        if (job.parts().size() != 4) {
            throw new RejectedJobException(NEEDS_CRAWLID);
        }
        List<String> parts = job.parts(4, "stop:<spiderid>:<appid>:<crawlid>");
        CrawlRef crawl = new CrawlRef(parts.get(1), parts.get(2), parts.get(3));
        LOG.atInfo().addKeyValue("action", "stop").addKeyValue("appid", crawl.appid()).addKeyValue("spiderid", crawl.spiderId())
                .addKeyValue("uuid", job.value()).addKeyValue("crawlid", crawl.crawlid()).log("Received stop request");
        long purged = stopper.stop(crawl);
        context.redis().sync().del(crawl.timeoutKey());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("action", "stop");
        answer.put("spiderid", crawl.spiderId());
        answer.put("appid", crawl.appid());
        answer.put("crawlid", crawl.crawlid());
        answer.put("total_purged", purged);
        answer.put("uuid", job.value());
        answer.put("server_time", context.serverTime());
        return List.of(new Answer(crawl.appid(), answer, "Sent stop ack to kafka"));
    }

    /** The stop answer with the {@code error} in place of {@code total_purged}. */
    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        List<String> parts = job.parts();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("action", "stop");
        answer.put("spiderid", parts.get(1));
        answer.put("appid", parts.get(2));
        if (parts.size() == 4) {
            answer.put("crawlid", parts.get(3));
        }
        answer.put("uuid", job.value());
        answer.put("server_time", context.serverTime());
        answer.put("error", error);
        return Optional.of(new Answer(parts.get(2), answer, "Sent stop error to kafka"));
    }
}
