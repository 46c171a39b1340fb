package org.scrapycluster.common.cache;

import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

import org.scrapycluster.common.settings.Settings;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

/**
 * The caches one process keeps of values that are costly to compute and never change (the registered
 * domain of a host, the ASCII form of a host name, whether a regex runs in linear time, the link
 * extractor of a set of filters). Each is a Caffeine cache with a name, bounded by size (or, for entries not alike
 * in size, by their {@linkplain #weighed weight}) and evicting the entries least likely to be used again;
 * {@link #configure} sets each maximum from
 * {@code CACHE_MAX_ENTRIES} and reports hits, misses, evictions and sizes on {@code /metrics} as
 * {@code cache_gets_total{cache=...}}, {@code cache_evictions_total}, {@code cache_size}.
 *
 * <p>The caches are shared by every service of the process, as the values are. A cache made before
 * {@link #configure} runs starts with its default maximum and is resized then.
 */
public final class ProcessCaches {

    private static final Map<String, Cache<?, ?>> CACHES = new ConcurrentHashMap<>();
    private static final Map<String, Long> MAXIMA = new ConcurrentHashMap<>();
    private static final Map<MeterRegistry, Boolean> REGISTRIES = new ConcurrentHashMap<>();

    private ProcessCaches() {
    }

    /**
     * The cache named {@code name}, made on first use with at most {@code defaultMaximum} entries (or
     * the configured maximum, when {@link #configure} has run).
     */
    public static <K, V> Cache<K, V> named(String name, long defaultMaximum) {
        return make(name, maximum -> Caffeine.newBuilder().maximumSize(maximum), defaultMaximum);
    }

    /**
     * The cache named {@code name} whose entries are not alike in size: one weighs as many entries as {@code weigher}
     * says (at least one), and the maximum bounds their weight together, made on first use as {@link #named} is.
     */
    public static <K, V> Cache<K, V> weighed(String name, long defaultMaximum, Weigher<? super K, ? super V> weigher) {
        return make(name, maximum -> Caffeine.newBuilder().maximumWeight(maximum).weigher(weigher), defaultMaximum);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Cache<K, V> make(String name, LongFunction<Caffeine<? super K, ? super V>> bounded, long defaultMaximum) {
        return (Cache<K, V>) CACHES.computeIfAbsent(name, key -> {
            Cache<K, V> cache = ((Caffeine<K, V>) bounded.apply(MAXIMA.getOrDefault(key, defaultMaximum))).recordStats().build();
            REGISTRIES.keySet().forEach(registry -> CaffeineCacheMetrics.monitor(registry, cache, key));
            return cache;
        });
    }

    /**
     * Sizes every cache by {@code settings}' {@code CACHE_MAX_ENTRIES} (name to maximum entries; names
     * not listed keep their defaults) and reports them all, and those made later, on {@code registry}.
     */
    public static synchronized void configure(Settings settings, MeterRegistry registry) {
        settings.getMap("CACHE_MAX_ENTRIES").forEach((name, maximum) -> {
            long entries = toEntries(settings, name, maximum);
            MAXIMA.put(name, entries);
            Cache<?, ?> cache = CACHES.get(name);
            if (cache != null) {
                cache.policy().eviction().ifPresent(eviction -> eviction.setMaximum(entries));
            }
        });
        if (REGISTRIES.putIfAbsent(registry, Boolean.TRUE) == null) {
            CACHES.forEach((name, cache) -> CaffeineCacheMetrics.monitor(registry, cache, name));
        }
    }

    private static long toEntries(Settings settings, String name, Object maximum) {
        try {
            // a number, or text written as one (1e5 and 50000.00 stay text in a settings file): whole, not negative
            long entries = new BigDecimal(String.valueOf(maximum).trim()).longValueExact();
            if (entries >= 0) {
                return entries;
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // refused below
        }
        throw settings.invalid("CACHE_MAX_ENTRIES", "the maximum of cache '" + name + "' must be a whole number of entries, not " + maximum);
    }
}
