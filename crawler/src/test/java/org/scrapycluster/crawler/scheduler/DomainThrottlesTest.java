package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.zookeeper.DomainThrottle;

/** Defaults, ZooKeeper entries, Crawl-delay and the four throttle key styles (docs/compatibility.md §10.3). */
class DomainThrottlesTest {

    private final DomainThrottles throttles = new DomainThrottles("link", new ThrottleKeyStyle(true, true), 60, 10, true, "ip", 1_000);

    @Test
    void defaultsThenAZooKeeperEntryWithItsScale() {
        assertEquals(new ThrottleSpec("link:ip:ex1.com", 60, 10, true), throttles.specFor("ex1.com"));
        throttles.overrides(Map.of("ex1.com", DomainThrottle.of(50, 10, 1.0), "ex2.com", DomainThrottle.of(50, 10, 0.5)));
        assertEquals(new ThrottleSpec("link:ip:ex1.com", 50, 10, true), throttles.specFor("ex1.com"));
        assertEquals(5, throttles.specFor("ex2.com").limit());
        throttles.overrides(Map.of());
        assertEquals(10, throttles.specFor("ex2.com").limit(), "an emptied config reverts to the defaults");
        throttles.overrides(Map.of("ex1.com", DomainThrottle.of(Long.MAX_VALUE, 10, 1.0)));
        assertEquals(365 * 86_400, throttles.specFor("ex1.com").windowSeconds(), "a window longer than a year counts as a year");
    }

    /** A fractional window is applied as written, as Python crawlers apply it on the same throttle key, not cut to 1. */
    @Test
    void aFractionalWindowIsAppliedAsWritten() {
        throttles.overrides(Map.of("ex1.com", DomainThrottle.of(1.5, 3, 1.0)));
        assertEquals(new ThrottleSpec("link:ip:ex1.com", 1.5, 3, true), throttles.specFor("ex1.com"));
    }

    @Test
    void aCrawlDelayBoundsTheLimitAndSpreadsTheHandOuts() {
        DomainThrottles open = new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 100, false, "ip", 1_000);
        open.awaitRobots();
        assertTrue(open.awaitsRobots("ex1.com"));
        open.crawlDelay("ex1.com", "www.ex1.com", Duration.ofSeconds(2));
        assertFalse(open.awaitsRobots("ex1.com"));
        assertEquals(new ThrottleSpec("ex1.com", 60, 30, true), open.specFor("ex1.com"));
        open.crawlDelay("ex1.com", "api.ex1.com", Duration.ofSeconds(120));
        assertEquals(new ThrottleSpec("ex1.com", 120, 1, true), open.specFor("ex1.com"), "a delay longer than the window");
        open.crawlDelay("ex1.com", "api.ex1.com", Duration.ZERO);
        assertEquals(30, open.specFor("ex1.com").limit());
        open.crawlDelay("ex1.com", "api.ex1.com", Duration.ofDays(365_000));
        assertEquals(new ThrottleSpec("ex1.com", 86_400, 1, true), open.specFor("ex1.com"), "a delay longer than a day counts as a day");
    }

    @Test
    void aCrawlDelayLongerThanTheLongestHonouredCountsAsThat() {
        DomainThrottles throttles = new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 10, false, "ip", 1_000);
        throttles.longestCrawlDelay(Duration.ofSeconds(60)); // ROBOTSTXT_MAX_CRAWL_DELAY

        throttles.crawlDelay("github.io", "evil.github.io", Duration.ofDays(1));

        assertEquals(Optional.of(Duration.ofSeconds(60)), throttles.specFor("github.io").leastGap(), "every github.io host's spacing");
        throttles.longestCrawlDelay(Duration.ofDays(400));
        throttles.crawlDelay("github.io", "evil.github.io", Duration.ofDays(400));
        assertEquals(Duration.ofDays(1), throttles.crawlDelay("github.io"), "never more than a day");
    }

    @Test
    void aDomainOfManyHostsKeepsTheirLongestDelayAndNoMoreThanItsShareOfThem() {
        DomainThrottles throttles = new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 100, false, "ip", 1_000);
        throttles.crawlDelay("blogs.test", "http://slow.blogs.test", Duration.ofSeconds(30));
        for (int i = 0; i < 10 * HostDelays.MOST_HOSTS; i++) {
            throttles.crawlDelay("blogs.test", "http://b" + i + ".blogs.test", Duration.ofSeconds(1 + i % 5));
        }
        assertEquals(Duration.ofSeconds(30), throttles.crawlDelay("blogs.test"));

        throttles.crawlDelay("blogs.test", "http://slow.blogs.test", Duration.ZERO);
        assertEquals(Duration.ofSeconds(5), throttles.crawlDelay("blogs.test"), "the next longest, once it is gone");
    }

    @Test
    void aHostsDelaysAreKeptForAtMostItsShareOfHosts() {
        HostDelays delays = new HostDelays();
        for (int i = 0; i < 3 * HostDelays.MOST_HOSTS; i++) {
            delays.note("http://b" + i + ".blogs.test", Duration.ofSeconds(1 + i % 5));
        }
        assertEquals(HostDelays.MOST_HOSTS, delays.hosts());
        assertEquals(Duration.ofSeconds(5), delays.longest());
    }

    @Test
    void theDomainsWhoseRobotsTxtWasReadAreBounded() {
        DomainThrottles bounded = new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 100, false, "ip", 10);
        bounded.awaitRobots();
        for (int i = 0; i < 1_000; i++) {
            bounded.crawlDelay("ex" + i + ".com", "www.ex" + i + ".com", Duration.ofSeconds(i % 2));
        }
        long remembered = java.util.stream.IntStream.range(0, 1_000).filter(i -> !bounded.awaitsRobots("ex" + i + ".com")).count();
        assertTrue(remembered <= 10, "a long broad crawl must not remember every domain it met: " + remembered);
        bounded.crawlDelay("ex1.com", "www.ex1.com", Duration.ofSeconds(2));
        assertEquals(new ThrottleSpec("ex1.com", 60, 30, true), bounded.specFor("ex1.com"), "a domain read again is known again");
    }

    @Test
    void theFourKeyStyles() {
        assertEquals("ex1:throttle_window", spec(false, false).windowKey());
        assertEquals("link:ex1:throttle_window", spec(true, false).windowKey());
        assertEquals("ip:ex1:throttle_window", spec(false, true).windowKey());
        assertEquals("link:ip:ex1:throttle_window", spec(true, true).windowKey());
    }

    private static ThrottleSpec spec(boolean byType, boolean byIp) {
        return new DomainThrottles("link", new ThrottleKeyStyle(byType, byIp), 60, 10, true, "ip", 1_000).specFor("ex1");
    }
}
