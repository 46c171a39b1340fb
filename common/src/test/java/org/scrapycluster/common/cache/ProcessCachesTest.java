package org.scrapycluster.common.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

import com.github.benmanes.caffeine.cache.Cache;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class ProcessCachesTest {

    private static Settings withSizes(String sizes) {
        return Settings.load("rest", new SettingsSources(null, Map.of(), Map.of("CACHE_MAX_ENTRIES", sizes)));
    }

    @Test
    void aCacheMadeBeforeConfigureIsResizedAndReported() {
        Cache<Integer, String> cache = ProcessCaches.named("test-before", 1_000);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        ProcessCaches.configure(withSizes("{test-before: 3}"), registry);
        for (int i = 0; i < 50; i++) {
            cache.get(i, String::valueOf);
        }
        cache.getIfPresent(49);
        cache.cleanUp();

        assertTrue(cache.estimatedSize() <= 3, "bounded by the setting: " + cache.estimatedSize());
        assertEquals(50.0, registry.get("cache.gets").tags("cache", "test-before", "result", "miss").functionCounter().count());
        assertEquals(1.0, registry.get("cache.gets").tags("cache", "test-before", "result", "hit").functionCounter().count());
        assertTrue(registry.get("cache.evictions").tags("cache", "test-before").functionCounter().count() >= 47);
    }

    @Test
    void aCacheMadeAfterConfigureStartsWithTheConfiguredMaximum() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ProcessCaches.configure(withSizes("{test-after: 2}"), registry);

        Cache<Integer, Integer> cache = ProcessCaches.named("test-after", 1_000);

        assertEquals(2L, cache.policy().eviction().orElseThrow().getMaximum());
        assertEquals(0.0, registry.get("cache.size").tags("cache", "test-after").gauge().value());
    }

    @Test
    void aMaximumWrittenWithAnExponentOrWholeDecimalsIsTaken() {
        ProcessCaches.configure(withSizes("{test-exponent: 1e2, test-decimals: 50.00}"), new SimpleMeterRegistry());

        assertEquals(100L, ProcessCaches.named("test-exponent", 1_000).policy().eviction().orElseThrow().getMaximum());
        assertEquals(50L, ProcessCaches.named("test-decimals", 1_000).policy().eviction().orElseThrow().getMaximum());
    }

    @Test
    void oneNameIsOneCache() {
        assertTrue(ProcessCaches.named("test-same", 10) == ProcessCaches.named("test-same", 20));
    }

    @Test
    void aMaximumThatIsNotAWholeNumberStopsTheService() {
        SettingsException refused = assertThrows(SettingsException.class,
                () -> ProcessCaches.configure(withSizes("{test-bad: lots}"), new SimpleMeterRegistry()));

        assertTrue(refused.getMessage().contains("CACHE_MAX_ENTRIES"), refused.getMessage());
        assertTrue(refused.getMessage().contains("test-bad"), refused.getMessage());
    }
}
