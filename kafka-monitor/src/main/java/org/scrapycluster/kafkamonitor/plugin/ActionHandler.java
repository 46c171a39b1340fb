package org.scrapycluster.kafkamonitor.plugin;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;

/**
 * Info and stop requests (docs/api.md "Info request", "Stop request"): the job {@code <action>:<spiderid>:<appid>[:<crawlid>]}
 * holding the uuid, for the Redis monitor, which answers it on the outbound topic. A stop of a crawl puts the crawl in its
 * spider's blacklist first, as the Redis monitor does again before its purge: the seeds that come after the stop are
 * refused, those of its own batch too, rather than queued until the Redis monitor takes the job.
 */
public final class ActionHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return RequestSchema.builtIn(RequestSchema.ACTION);
    }

    @Override
    public Handling handle(ObjectNode request) {
        String spiderId = request.get("spiderid").asText();
        String appid = request.get("appid").asText();
        JsonNode crawlid = request.get("crawlid");
        String action = request.get("action").asText();
        String key;
        switch (action) {
            case "info" -> key = crawlid == null ? Keyspace.INFO_APP.fill(spiderId, appid) : Keyspace.INFO_CRAWL.fill(spiderId, appid, crawlid.asText());
            case "stop" -> key = crawlid == null ? Keyspace.STOP_APP.fill(spiderId, appid) : Keyspace.STOP_CRAWL.fill(spiderId, appid, crawlid.asText());
            default -> {
                return Handling.refuse("Unknown action", List.of("action: must be info or stop, was " + request.get("action")));
            }
        }
        RedisEffect job = new RedisEffect.SetJob(key, request.get("uuid").asText());
        if (action.equals("stop") && crawlid != null) {
            String stopped = new CrawlRef(spiderId, appid, crawlid.asText()).blacklistEntry();
            return Handling.accept("Added action to Redis", new RedisEffect.AddMember(Keyspace.blacklist(spiderId), stopped), job);
        }
        return Handling.accept("Added action to Redis", job);
    }
}
