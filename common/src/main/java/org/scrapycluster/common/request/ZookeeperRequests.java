package org.scrapycluster.common.request;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.domain.DomainKey;
import org.scrapycluster.common.zookeeper.DomainThrottle;

/**
 * What is refused of a zookeeper request that its schema lets through (docs/api.md, "ZooKeeper request"): a
 * {@code domain} that is an internationalised name without an ASCII form, which no queue key can spell; a
 * {@code domain-update} whose {@code hits} or {@code window} is 0 or left out (0 is the schema's default), which the
 * original dropped with only a log line; and one whose {@code window} is not from a second to a year, which crawlers
 * would ignore or cut short. The Kafka monitor's zookeeper handler refuses them, and the REST gateway, checking what it
 * feeds, refuses them at once.
 */
public final class ZookeeperRequests {

    /**
     * Why a request is refused.
     *
     * @param reason  one sentence, e.g. {@code 'hits' and 'window' not set for domain update}
     * @param details what exactly is wrong, one item per field
     */
    public record Refused(String reason, List<String> details) {

        public Refused {
            Objects.requireNonNull(reason, "reason");
            details = List.copyOf(details);
        }
    }

    /** The action that sets a domain's throttle, the one with {@code hits}, {@code window} and {@code scale}. */
    public static final String DOMAIN_UPDATE = "domain-update";

    private ZookeeperRequests() {
    }

    /**
     * Why {@code request}, valid against the zookeeper schema with its defaults filled in, is refused; empty when it is
     * not.
     */
    public static Optional<Refused> refusal(JsonNode request) {
        try {
            DomainKey.of(request.get("domain").asText());
        } catch (IllegalArgumentException e) {
            return Optional.of(new Refused("'domain' has no ASCII form (IDNA)", List.of("domain: has no ASCII form (IDNA): " + e.getMessage())));
        }
        if (!request.get("action").asText().equals(DOMAIN_UPDATE)) {
            return Optional.empty();
        }
        List<String> unset = new ArrayList<>();
        for (String field : new String[] {"hits", "window"}) {
            if (request.get(field).bigIntegerValue().signum() == 0) {
                // the schema's default is 0, so a field left out reads 0 here too
                unset.add(field + ": must be set, and not 0, for a domain-update (0 is also what it is when left out)");
            }
        }
        if (!unset.isEmpty()) {
            return Optional.of(new Refused("'hits' and 'window' not set for domain update", unset));
        }
        BigInteger window = request.get("window").bigIntegerValue();
        if (!DomainThrottle.isSettableWindow(window.doubleValue())) {
            return Optional.of(new Refused("'window' out of range for domain update",
                    List.of("window: must be " + DomainThrottle.SETTABLE_WINDOWS + ", was " + window)));
        }
        return Optional.empty();
    }
}
