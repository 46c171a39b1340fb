package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.crawler.fetch.FetcherConfig;

class CrawlerConfigTest {

    private static final Settings DEFAULTS = Settings.defaults("crawler");

    @Test
    void aDownloadMaxsizeOfZeroIsScrapysNoLimit() {
        assertEquals(FetcherConfig.LARGEST_BODY, fetcher(0).maxBodyBytes());
        assertEquals(10L << 20, CrawlerConfig.from(DEFAULTS).fetcher().maxBodyBytes());
    }

    @Test
    void aNegativeDownloadMaxsizeIsRefusedNamingTheSetting() {
        SettingsException refused = assertThrows(SettingsException.class, () -> fetcher(-1));
        assertTrue(refused.getMessage().contains("DOWNLOAD_MAXSIZE"), refused.getMessage());
    }

    @Test
    void theDnsTimeoutIsScrapysSecondsWithFractions() {
        assertEquals(Duration.ofSeconds(60), CrawlerConfig.from(DEFAULTS).fetcher().dnsTimeout());
        assertEquals(Duration.ofMillis(2500),
                CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("DNS_TIMEOUT", 2.5))).fetcher().dnsTimeout());
        SettingsException refused = assertThrows(SettingsException.class,
                () -> CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("DNS_TIMEOUT", 0))).fetcher());
        assertTrue(refused.getMessage().contains("DNS_TIMEOUT"), refused.getMessage());
    }

    /** A ZooKeeper window is at most a year; a default one longer would overflow the scheduler's waits. */
    @Test
    void aQueueWindowOverAYearIsRefusedNamingTheSetting() {
        SettingsException refused = assertThrows(SettingsException.class,
                () -> CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("QUEUE_WINDOW", 1e10))));
        assertTrue(refused.getMessage().contains("QUEUE_WINDOW"), refused.getMessage());
        assertEquals(31_536_000.0, CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("QUEUE_WINDOW", 31_536_000))).queueWindow());
    }

    /** The longest Crawl-delay honoured is at most a day, as its doc says: a longer one is refused, not cut down unsaid. */
    @Test
    void aLongestCrawlDelayOverADayIsRefusedNamingTheSetting() {
        SettingsException refused = assertThrows(SettingsException.class,
                () -> CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("ROBOTSTXT_MAX_CRAWL_DELAY", 86_401))));
        assertTrue(refused.getMessage().contains("ROBOTSTXT_MAX_CRAWL_DELAY"), refused.getMessage());
        assertEquals(Duration.ofDays(1),
                CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("ROBOTSTXT_MAX_CRAWL_DELAY", 86_400))).robotsMaxCrawlDelay());
    }

    /** What the node's parts read later is refused with the rest, so that {@code crawler --check} says it as a start does. */
    @Test
    void aValueReadLaterIsRefusedWithTheOthers() {
        SettingsException proxy = assertThrows(SettingsException.class,
                () -> CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("DOWNLOAD_PROXY", "http://crawler:ProxyPw_8812@"))));
        assertTrue(proxy.getMessage().contains("DOWNLOAD_PROXY") && proxy.getMessage().contains("host and port")
                && !proxy.getMessage().contains("ProxyPw_8812"), proxy.getMessage());
        SettingsException robots = assertThrows(SettingsException.class,
                () -> CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("ROBOTSTXT_CACHE_MAX_BYTES", 0))));
        assertTrue(robots.getMessage().contains("ROBOTSTXT_CACHE_MAX_BYTES"), robots.getMessage());
    }

    private static FetcherConfig fetcher(long maxsize) {
        return CrawlerConfig.from(DEFAULTS.withLauncherValues(Map.of("DOWNLOAD_MAXSIZE", maxsize))).fetcher();
    }
}
