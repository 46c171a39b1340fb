package org.scrapycluster.common.stats;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import org.scrapycluster.common.settings.Settings;

/**
 * Which HTTP status codes the crawlers count in {@code stats:crawler:<host>:<spider>:<code>} (config/status-codes.yml,
 * docs/compatibility.md §4.12), for the crawlers that keep the counters and the gateway that charts them: none when
 * {@code STATS_STATUS_CODES} is off; otherwise a response reaching the spider is counted when its status is one of
 * {@code STATS_RESPONSE_CODES}, and every failed download attempt is counted as {@value #FAILED_DOWNLOAD}, listed or
 * not.
 */
public final class CountedStatusCodes {

    /** The status a failed download attempt is counted as. */
    public static final int FAILED_DOWNLOAD = 504;

    private final Set<Integer> responses;
    private final Set<Integer> counters;

    /**
     * @param enabled   {@code STATS_STATUS_CODES}
     * @param responses {@code STATS_RESPONSE_CODES}
     */
    public CountedStatusCodes(boolean enabled, Collection<Integer> responses) {
        this.responses = enabled ? Set.copyOf(responses) : Set.of();
        Set<Integer> all = new HashSet<>(this.responses);
        if (enabled) {
            all.add(FAILED_DOWNLOAD);
        }
        this.counters = Set.copyOf(all);
    }

    /** The codes counted by {@code settings}' {@code STATS_STATUS_CODES} and {@code STATS_RESPONSE_CODES}. */
    public static CountedStatusCodes from(Settings settings) {
        return new CountedStatusCodes(settings.getBoolean("STATS_STATUS_CODES"), settings.getIntList("STATS_RESPONSE_CODES"));
    }

    /** Whether a response of {@code status} that reaches the spider is counted. */
    public boolean countsResponse(int status) {
        return responses.contains(status);
    }

    /** Whether failed download attempts are counted (as {@value #FAILED_DOWNLOAD}). */
    public boolean countsFailedDownloads() {
        return counters.contains(FAILED_DOWNLOAD);
    }

    /** Every code that has a counter: those of the responses counted, and {@value #FAILED_DOWNLOAD} unless none is. */
    public Set<Integer> all() {
        return counters;
    }
}
