package org.scrapycluster.common.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One request to file into a domain queue with {@link Enqueuer}.
 *
 * @param queue        the domain queue
 * @param member       the JSON member, either shape of behaviour spec §4.4.1
 * @param dupefilter   when present, the request is refused if its fingerprint was seen by the crawl
 * @param writeTimeout whether to {@code SET timeout:<spiderid>:<appid>:<crawlid>} to the crawl's
 *                     {@code expires} when it is not 0 (the Kafka monitor does, for seeds)
 */
public record EnqueueRequest(QueueKey queue, String member, Optional<Dupefilter> dupefilter, boolean writeTimeout) {

    public EnqueueRequest {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(dupefilter, "dupefilter");
    }

    /** A request with no dupefilter check and no timeout key. */
    public static EnqueueRequest of(QueueKey queue, String member) {
        return new EnqueueRequest(queue, member, Optional.empty(), false);
    }

    /** This request, checked against and registered in {@code dupefilter}. */
    public EnqueueRequest withDupefilter(Dupefilter dupefilter) {
        return new EnqueueRequest(queue, member, Optional.of(dupefilter), writeTimeout);
    }

    /** This request, also writing the crawl's timeout key. */
    public EnqueueRequest withTimeoutKey() {
        return new EnqueueRequest(queue, member, dupefilter, true);
    }

    /**
     * A request fingerprint to register in a dupefilter SET ({@code SADD}, then {@code EXPIRE}).
     *
     * @param key         the SET, usually {@link Keyspace#dupefilter} of the crawl
     * @param fingerprint the request fingerprint (SHA-1 hex)
     * @param ttl         the SET's expiry, refreshed on every check ({@code DUPEFILTER_TIMEOUT})
     */
    public record Dupefilter(String key, String fingerprint, Duration ttl) {

        public Dupefilter {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(fingerprint, "fingerprint");
            if (key.isEmpty()) {
                throw new IllegalArgumentException("a dupefilter key must not be empty");
            }
            if (ttl.getSeconds() < 1) {
                throw new IllegalArgumentException("a dupefilter expiry must be at least a second, got " + ttl);
            }
        }
    }
}
