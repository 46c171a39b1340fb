package org.scrapycluster.common.zookeeper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The cluster-wide domain config kept in ZooKeeper ({@code /scrapy-cluster/crawler/all}): a
 * blacklist of registered domains never popped, and per-domain throttle overrides. Immutable;
 * the four edits of the Redis monitor's zookeeper job return a new config.
 *
 * <p>The blacklist is optional because its absence means something to crawlers: a config without
 * a {@code blacklist} key leaves the blacklist they already have in place. Every edit makes both
 * keys present, as the original Redis monitor does before it applies an action.
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
    public Map<String, DomainThrottle> throttles() {
        SortedMap<String, DomainThrottle> complete = new TreeMap<>();
        domains.forEach((domain, throttle) -> {
            if (throttle.applies()) {
                complete.put(domain, throttle);
            }
        });
        return Collections.unmodifiableSortedMap(complete);
    }

    /** {@code domain-update}: sets (replaces) the domain's entry. */
    public DomainConfig domainUpdate(String domain, long window, long hits, double scale) {
        SortedMap<String, DomainThrottle> edited = new TreeMap<>(domains);
        edited.put(domain, DomainThrottle.of(window, hits, scale));
        return new DomainConfig(Optional.of(blacklistOrEmpty()), edited);
    }

    /** {@code domain-remove}: drops the domain's entry when there is one. */
    public DomainConfig domainRemove(String domain) {
        SortedMap<String, DomainThrottle> edited = new TreeMap<>(domains);
        edited.remove(domain);
        return new DomainConfig(Optional.of(blacklistOrEmpty()), edited);
    }

    /** {@code blacklist-update}: adds the domain to the blacklist, once (the order of first listing is kept). */
    public DomainConfig blacklistUpdate(String domain) {
        LinkedHashSet<String> edited = new LinkedHashSet<>(blacklistOrEmpty());
        edited.add(domain);
        return new DomainConfig(Optional.of(List.copyOf(edited)), domains);
    }

    /** {@code blacklist-remove}: takes the domain off the blacklist when it is on it. */
    public DomainConfig blacklistRemove(String domain) {
        List<String> edited = new ArrayList<>(blacklistOrEmpty());
        edited.removeIf(domain::equals);
        return new DomainConfig(Optional.of(edited), domains);
    }

    private List<String> blacklistOrEmpty() {
        return blacklist.orElse(List.of());
    }
}
