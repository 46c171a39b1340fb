package org.scrapycluster.kafkamonitor.plugin;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.domain.DomainKey;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.zookeeper.DomainThrottle;

/**
 * ZooKeeper requests (docs/compatibility.md §2.4.4, §2.5): {@code SET zk:<action>:<domain>:<appid> <json>}
 * with {@code {"domain","uuid"}}, plus {@code "hits","scale","window"} for a {@code domain-update},
 * a job for the Redis monitor, which edits the domain configuration in ZooKeeper and answers. A
 * {@code domain-update} whose {@code hits} or {@code window} is 0 (or left out) is refused with a
 * reason; the original drops it with only a log line. So is one whose {@code window} is not
 * from a second to a year, which crawlers would ignore or cut short, and one whose {@code domain} is an
 * internationalised name without an ASCII form, which no queue key can spell (the Redis monitor stores
 * the ASCII form, {@link DomainKey}).
 */
public final class ZookeeperHandler implements KafkaMonitorPlugin {

    private static final String DOMAIN_UPDATE = "domain-update";

    private Json json;

    @Override
    public RequestSchema setup(Settings settings) {
        json = new Json(JsonLimits.from(settings));
        return RequestSchema.builtIn(RequestSchema.ZOOKEEPER);
    }

    @Override
    public Handling handle(ObjectNode request) {
        String action = request.get("action").asText();
        String domain = request.get("domain").asText();
        try {
            DomainKey.of(domain);
        } catch (IllegalArgumentException e) {
            return Handling.refuse("'domain' has no ASCII form (IDNA)", List.of("domain: has no ASCII form (IDNA): " + e.getMessage()));
        }
        ObjectNode job = JsonNodeFactory.instance.objectNode();
        job.set("domain", request.get("domain"));
        job.set("uuid", request.get("uuid"));
        if (action.equals(DOMAIN_UPDATE)) {
            List<String> unset = new ArrayList<>();
            for (String field : new String[] {"hits", "window"}) {
                if (request.get(field).bigIntegerValue().signum() == 0) {
                    // the schema's default is 0, so a field left out reads 0 here too
                    unset.add(field + ": must be set, and not 0, for a domain-update (0 is also what it is when left out)");
                }
            }
            if (!unset.isEmpty()) {
                return Handling.refuse("'hits' and 'window' not set for domain update", unset);
            }
            BigInteger window = request.get("window").bigIntegerValue();
            if (!DomainThrottle.isSettableWindow(window.doubleValue())) {
                return Handling.refuse("'window' out of range for domain update",
                        List.of("window: must be " + DomainThrottle.SETTABLE_WINDOWS + ", was " + window));
            }
            job.set("hits", request.get("hits"));
            job.set("scale", request.get("scale"));
            job.set("window", request.get("window"));
        }
        String key = Keyspace.ZOOKEEPER.fill(action, domain, request.get("appid").asText());
        return Handling.accept("Added zookeeper action to Redis", new RedisEffect.SetJob(key, json.writeString(job)));
    }
}
