package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * The robots.txt Crawl-delays of one registered domain's hosts, and the longest of them, which every hand-out of the
 * domain reads: kept at hand, found again only when a host's delay changes (each request of a host tells the same one),
 * not by a walk over the hosts at each hand-out. A domain of many hosts (every blog of a blogging platform) keeps the
 * delays of at most {@link #MOST_HOSTS}; past that, the shortest is forgotten for a longer one, so that the longest is
 * always kept.
 */
final class HostDelays {

    /** How many hosts' delays a domain keeps at most. */
    static final int MOST_HOSTS = 1_024;

    /** Guarded by this. */
    private final Map<String, Duration> delays = new HashMap<>();
    private volatile Duration longest = Duration.ZERO;

    /** Notes {@code delay}, zero for none, as the delay of {@code host}. */
    synchronized void note(String host, Duration delay) {
        Duration before = delay.isZero() ? delays.remove(host) : delays.put(host, delay);
        if (delay.equals(before) || delay.isZero() && before == null) {
            return;
        }
        if (delays.size() > MOST_HOSTS) {
            delays.entrySet().stream().min(Map.Entry.comparingByValue()).map(Map.Entry::getKey).ifPresent(delays::remove);
        }
        longest = delays.values().stream().max(Comparator.naturalOrder()).orElse(Duration.ZERO);
    }

    /** The longest delay of the hosts, zero for none. */
    Duration longest() {
        return longest;
    }

    /** How many hosts' delays are kept. */
    synchronized int hosts() {
        return delays.size();
    }
}
