package org.scrapycluster.kafkamonitor.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;

/**
 * Info and stop requests (docs/compatibility.md §2.4.2, §2.5): {@code SET <action>:<spiderid>:<appid>[:<crawlid>] <uuid>},
 * a job for the Redis monitor, which answers it on the outbound topic.
 */
public final class ActionHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return RequestSchema.builtIn(RequestSchema.ACTION);
    }

    @Override
    public Handling handle(ObjectNode request) {
        StringBuilder key = new StringBuilder(request.get("action").asText())
                .append(':').append(request.get("spiderid").asText())
                .append(':').append(request.get("appid").asText());
        JsonNode crawlid = request.get("crawlid");
        if (crawlid != null) {
            key.append(':').append(crawlid.asText());
        }
        return Handling.accept("Added action to Redis", new RedisEffect.SetJob(key.toString(), request.get("uuid").asText()));
    }
}
