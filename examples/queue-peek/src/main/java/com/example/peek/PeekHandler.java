package com.example.peek;

import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Takes {@code {"action": "peek", "appid", "uuid", "spiderid", "domain", "count"}} requests (schema
 * {@code peek_schema.json}) and writes their job for the Redis monitors: {@code SET peek:<spiderid>:<domain>:<appid>:<count>
 * <uuid>}. The schema has done the checking; {@code count} has its default filled in.
 */
public final class PeekHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(PeekHandler.class, "peek_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        PeekJob job = new PeekJob(request.get("spiderid").asText(), request.get("domain").asText(), request.get("appid").asText(),
                request.get("count").asInt());
        return Handling.accept("Added peek request to Redis", new RedisEffect.SetJob(job.key(), request.get("uuid").asText()));
    }
}
