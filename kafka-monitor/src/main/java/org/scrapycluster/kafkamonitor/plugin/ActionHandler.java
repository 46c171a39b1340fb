package org.scrapycluster.kafkamonitor.plugin;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;

/**
 * Info and stop requests (docs/api.md "Info request", "Stop request"): the job {@code <action>:<spiderid>:<appid>[:<crawlid>]}
 * holding the uuid, for the Redis monitor, which answers it on the outbound topic.
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
        String key;
        switch (request.get("action").asText()) {
            case "info" -> key = crawlid == null ? Keyspace.INFO_APP.fill(spiderId, appid) : Keyspace.INFO_CRAWL.fill(spiderId, appid, crawlid.asText());
            case "stop" -> key = crawlid == null ? Keyspace.STOP_APP.fill(spiderId, appid) : Keyspace.STOP_CRAWL.fill(spiderId, appid, crawlid.asText());
            default -> {
                return Handling.refuse("Unknown action", List.of("action: must be info or stop, was " + request.get("action")));
            }
        }
        return Handling.accept("Added action to Redis", new RedisEffect.SetJob(key, request.get("uuid").asText()));
    }
}
