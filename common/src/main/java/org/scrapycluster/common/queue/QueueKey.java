package org.scrapycluster.common.queue;

import java.util.Objects;
import java.util.Optional;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * The key of one domain queue, {@code <spiderid>:<domain>:queue}.
 *
 * <p>Parsing takes the spider id up to the first {@code :} and the domain between it and the
 * final {@code :queue}, so a domain that contains {@code :} (an IPv6 host such as {@code [::1].})
 * still parses; spider ids never contain {@code :}.
 *
 * @param spiderId the spider whose queue it is
 * @param domain   the registered domain (docs/compatibility.md §0)
 */
public record QueueKey(String spiderId, String domain) {

    private static final String SUFFIX = Keyspace.QUEUE.suffix();

    public QueueKey {
        Objects.requireNonNull(spiderId, "spiderId");
        Objects.requireNonNull(domain, "domain");
        if (spiderId.isEmpty() || spiderId.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a spider id must be non-empty and free of ':', got '" + spiderId + "'");
        }
        if (domain.isEmpty()) {
            throw new IllegalArgumentException("a queue's domain must not be empty");
        }
    }

    /**
     * Reads a queue key.
     *
     * @throws IllegalArgumentException when {@code key} is not {@code <spiderid>:<domain>:queue}
     */
    public static QueueKey parse(String key) {
        return tryParse(key).orElseThrow(() -> new IllegalArgumentException("not a queue key <spiderid>:<domain>:queue: " + key));
    }

    /** Reads a queue key, or empty when {@code key} is not one. */
    public static Optional<QueueKey> tryParse(String key) {
        int colon = key.indexOf(':');
        if (colon <= 0 || !key.endsWith(SUFFIX) || key.length() - SUFFIX.length() <= colon + 1) {
            return Optional.empty();
        }
        return Optional.of(new QueueKey(key.substring(0, colon), key.substring(colon + 1, key.length() - SUFFIX.length())));
    }

    /** The Redis key. */
    public String key() {
        return Keyspace.queue(spiderId, domain);
    }

    @Override
    public String toString() {
        return key();
    }
}
