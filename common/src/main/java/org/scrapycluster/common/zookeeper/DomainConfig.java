package org.scrapycluster.common.zookeeper;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The cluster-wide domain config kept in ZooKeeper ({@code /scrapy-cluster/crawler/all}): a
 * blacklist of registered domains never popped, and per-domain throttle overrides, as crawlers read
 * them. Immutable. (The Redis monitor's zookeeper job edits the document as written instead,
 * {@link DomainConfigDocument}.)
 *
 * <p>The blacklist is optional because its absence means something to crawlers: a config without
 * a {@code blacklist} key leaves the blacklist they already have in place.
 *
 * @param blacklist the domains never popped, in their order, or empty when the key is absent
 * @param domains throttle entries by registered domain, sorted
 */
public record DomainConfig(Optional<List<String>> blacklist, SortedMap<String, DomainThrottle> domains) {

    /** No blacklist key and no throttle entries: what an empty node holds. */
    public static final DomainConfig EMPTY = new DomainConfig(Optional.empty(), new TreeMap<>());

    public DomainConfig {
        blacklist = Objects.requireNonNull(blacklist, "blacklist").map(List::copyOf);
        domains = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(domains, "domains")));
    }

    /** The entries crawlers apply ({@link DomainThrottle#applies()}). */
    /**
     * The config a crawler has in force once it reads {@code next} after this one: {@code next}'s throttles, and its
     * blacklist when it names one, else this one's ({@link #EMPTY}, as an emptied node reads, reverts the throttles only).
     */
    public DomainConfig followedBy(DomainConfig next) {
        return new DomainConfig(next.blacklist.isPresent() ? next.blacklist : blacklist, next.domains);
    }

    public Map<String, DomainThrottle> throttles() {
        SortedMap<String, DomainThrottle> complete = new TreeMap<>();
        domains.forEach((domain, throttle) -> {
            if (throttle.applies()) {
                complete.put(domain, throttle);
            }
        });
        return Collections.unmodifiableSortedMap(complete);
    }
}
