package org.scrapycluster.redismonitor.stats;

import java.util.Collection;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.regex.Pattern;

import org.scrapycluster.common.stats.StatsReader;

/**
 * Reads statistics keys for answers and dumps, with the original's visible behaviour: a rolling
 * window with no events in it is left out (the original's sorted set no longer exists then),
 * lifetime counts always appear, and window labels are ordered by length with {@code lifetime}
 * last.
 */
final class StatsValues {

    /** Window labels by length ({@code "900"} before {@code "3600"}), {@code lifetime} last, others by name. */
    static final Comparator<String> WINDOW_ORDER = Comparator
            .comparing((String window) -> window.equals(StatsValues.LIFETIME) ? 2 : isNumber(window) ? 0 : 1)
            .thenComparing(window -> isNumber(window) ? Long.parseLong(window) : 0L)
            .thenComparing(Comparator.naturalOrder());

    static final String LIFETIME = "lifetime";
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,18}");

    private final StatsReader reader;
    private final StatsKeys keys;

    StatsValues(StatsReader reader, StatsKeys keys) {
        this.reader = reader;
        this.keys = keys;
    }

    /**
     * The statistics keys whose original names match the glob {@code pattern}, by those names, whichever form holds
     * them, as a recent pass over the keyspace found them ({@link StatsKeys#statsNames}).
     */
    Collection<String> keys(String pattern) {
        return keys.statsNames(pattern);
    }

    /** The count at a statistics key whose window is {@code window}; empty when it is not to be shown. */
    OptionalLong value(String key, String window) {
        OptionalLong value = reader.value(key);
        if (value.isEmpty() || (value.getAsLong() == 0 && !LIFETIME.equals(window))) {
            return OptionalLong.empty();
        }
        return value;
    }

    private static boolean isNumber(String window) {
        return NUMBER.matcher(window).matches();
    }
}
