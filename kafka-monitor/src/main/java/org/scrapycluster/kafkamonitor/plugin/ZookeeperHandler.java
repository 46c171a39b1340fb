package org.scrapycluster.kafkamonitor.plugin;

import java.util.Optional;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.ZookeeperRequests;
import org.scrapycluster.common.settings.Settings;

/**
 * ZooKeeper requests (docs/compatibility.md §2.4.4, §2.5): {@code SET zk:<action>:<domain>:<appid> <json>}
 * with {@code {"domain","uuid"}}, plus {@code "hits","scale","window"} for a {@code domain-update},
 * a job for the Redis monitor, which edits the domain configuration in ZooKeeper and answers. What its schema lets
 * through and no job could do is refused with a reason ({@link ZookeeperRequests}): a {@code domain-update} without
 * {@code hits} or {@code window}, or with a window crawlers would not keep, and a domain without an ASCII form.
 */
public final class ZookeeperHandler implements KafkaMonitorPlugin {

    private Json json;

    @Override
    public RequestSchema setup(Settings settings) {
        json = new Json(JsonLimits.from(settings));
        return RequestSchema.builtIn(RequestSchema.ZOOKEEPER);
    }

    @Override
    public Handling handle(ObjectNode request) {
        Optional<ZookeeperRequests.Refused> refused = ZookeeperRequests.refusal(request);
        if (refused.isPresent()) {
            return Handling.refuse(refused.get().reason(), refused.get().details());
        }
        String action = request.get("action").asText();
        ObjectNode job = JsonNodeFactory.instance.objectNode();
        job.set("domain", request.get("domain"));
        job.set("uuid", request.get("uuid"));
        if (action.equals(ZookeeperRequests.DOMAIN_UPDATE)) {
            job.set("hits", request.get("hits"));
            job.set("scale", request.get("scale"));
            job.set("window", request.get("window"));
        }
        String key = Keyspace.ZOOKEEPER.fill(action, request.get("domain").asText(), request.get("appid").asText());
        return Handling.accept("Added zookeeper action to Redis", new RedisEffect.SetJob(key, json.writeString(job)));
    }
}
