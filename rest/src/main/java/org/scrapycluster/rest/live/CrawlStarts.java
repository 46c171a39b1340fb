package org.scrapycluster.rest.live;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each listed crawl started, by its name ({@code <spiderid>:<appid>:<crawlid>}): as its accounting records, else
 * when the live view first listed it; unknown for one that recorded none and was already active at the first listing.
 * A crawl that leaves the list (it finished, or fell behind {@code LIVE_MAX_CRAWLS} more recent ones) keeps its start
 * for an hour, so one that comes back is not shown as new; at most {@link #MAX_DEPARTED} departed crawls are kept, the
 * ones that left last, so a gateway watching many short crawls holds a bounded number of names: a completed crawl's
 * duration needs its start after it left. Kept on the live view's thread; {@link #started} may be asked from any.
 */
final class CrawlStarts {

    /** How long a crawl that left the list keeps its start. */
    static final long FORGET_MILLIS = 3_600_000;
    /** The most departed crawls whose starts are kept. */
    static final int MAX_DEPARTED = 10_000;

    private final Map<String, Long> starts = new ConcurrentHashMap<>();
    private final Set<String> unknown = ConcurrentHashMap.newKeySet();
    /** The departed crawls and when each left, the earliest first. */
    private final LinkedHashMap<String, Long> departed = new LinkedHashMap<>();
    /** The crawls of the listing under way, and of the one before it. */
    private Set<String> listed = new HashSet<>();
    private Set<String> lastListed = new HashSet<>();
    private boolean firstListingDone;

    /**
     * Lists the crawl {@code name} in the listing under way and answers its start, in epoch milliseconds: {@code recorded}
     * by its accounting, else when it was first listed ({@code nowMillis} the first time).
     */
    long start(String name, OptionalLong recorded, long nowMillis) {
        listed.add(name);
        departed.remove(name);
        if (recorded.isPresent()) {
            unknown.remove(name);
            starts.put(name, recorded.getAsLong());
            return recorded.getAsLong();
        }
        return starts.computeIfAbsent(name, unrecorded -> {
            if (!firstListingDone) {
                unknown.add(unrecorded);
            }
            return nowMillis;
        });
    }

    /** Whether the start of the listed crawl {@code name} is known, not only when it was first listed. */
    boolean known(String name) {
        return !unknown.contains(name);
    }

    /** When the crawl {@code name} started, listed or departed; empty when it is not kept or its start is not known. */
    OptionalLong started(String name) {
        Long started = starts.get(name);
        return started == null || unknown.contains(name) ? OptionalLong.empty() : OptionalLong.of(started);
    }

    /**
     * Ends the listing under way: the crawls of the one before that it did not list left at {@code nowMillis}, and the
     * starts of those that left over an hour ago, or before the last {@link #MAX_DEPARTED}, are forgotten.
     */
    void listingDone(long nowMillis) {
        firstListingDone = true;
        for (String name : lastListed) {
            if (!listed.contains(name)) {
                departed.putIfAbsent(name, nowMillis);
            }
        }
        Set<String> emptied = lastListed;
        emptied.clear();
        lastListed = listed;
        listed = emptied;
        Iterator<Map.Entry<String, Long>> earliest = departed.entrySet().iterator();
        while (earliest.hasNext()) {
            Map.Entry<String, Long> gone = earliest.next();
            if (departed.size() <= MAX_DEPARTED && nowMillis - gone.getValue() <= FORGET_MILLIS) {
                break;
            }
            starts.remove(gone.getKey());
            unknown.remove(gone.getKey());
            earliest.remove();
        }
    }
}
