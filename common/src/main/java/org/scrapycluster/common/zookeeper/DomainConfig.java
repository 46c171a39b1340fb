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

import org.scrapycluster.common.domain.DomainKey;

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

    /**
     * {@code domain-update}: sets the domain's entry, in place of every entry of the same domain spelled otherwise
     * ({@code Example.com}, which crawlers read as {@code example.com}), so that no stale one is left beside it.
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfig domainUpdate(String domain, long window, long hits, double scale) {
        SortedMap<String, DomainThrottle> edited = new TreeMap<>(domains);
        edited.keySet().removeIf(entry -> sameDomain(entry, domain));
        edited.put(domain, DomainThrottle.of(window, hits, scale));
        return new DomainConfig(Optional.of(blacklistOrEmpty()), edited);
    }

    /**
     * {@code domain-remove}: drops every entry of the domain, however spelled: crawlers apply an entry written
     * {@code Example.com} to {@code example.com} (docs/throttling.md), so one left behind would still be in force.
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfig domainRemove(String domain) {
        SortedMap<String, DomainThrottle> edited = new TreeMap<>(domains);
        edited.keySet().removeIf(entry -> sameDomain(entry, domain));
        return new DomainConfig(Optional.of(blacklistOrEmpty()), edited);
    }

    /**
     * {@code blacklist-update}: adds the domain to the blacklist, once, in place of every entry of the same domain
     * spelled otherwise (the order of first listing is kept).
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfig blacklistUpdate(String domain) {
        LinkedHashSet<String> edited = new LinkedHashSet<>();
        for (String entry : blacklistOrEmpty()) {
            edited.add(sameDomain(entry, domain) ? domain : entry);
        }
        edited.add(domain);
        return new DomainConfig(Optional.of(List.copyOf(edited)), domains);
    }

    /**
     * {@code blacklist-remove}: takes the domain off the blacklist, however it is spelled there: crawlers apply an
     * entry written {@code Example.com} to {@code example.com} (docs/throttling.md).
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfig blacklistRemove(String domain) {
        List<String> edited = new ArrayList<>(blacklistOrEmpty());
        edited.removeIf(entry -> sameDomain(entry, domain));
        return new DomainConfig(Optional.of(edited), domains);
    }

    /**
     * Whether crawlers apply {@code entry} of the config to {@code domain} (spelled as queue keys spell it): when
     * {@link DomainKey} folds it to that spelling, as they read it. An entry with no ASCII form matches only itself.
     */
    private static boolean sameDomain(String entry, String domain) {
        if (entry.equals(domain)) {
            return true;
        }
        try {
            return DomainKey.of(entry).equals(domain);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private List<String> blacklistOrEmpty() {
        return blacklist.orElse(List.of());
    }
}
