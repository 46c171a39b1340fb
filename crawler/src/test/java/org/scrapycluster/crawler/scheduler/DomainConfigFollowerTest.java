package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.ThrottleKeyStyle;

/** How the ZooKeeper text is applied: a config, garbage (kept), an emptied node (reverted), the blacklist rule (§5.3). */
class DomainConfigFollowerTest {

    private final DomainThrottles throttles = new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 10, true, "ip", 1_000);
    private final AtomicInteger changes = new AtomicInteger();
    private final DomainConfigFollower follower = new DomainConfigFollower(throttles, "link", changes::incrementAndGet);

    @Test
    void aConfigSetsThrottlesAndBlacklistAndAnEmptiedNodeRevertsTheThrottles() {
        follower.apply("blacklist:\n- ebay.com\ndomains:\n  ex1.com:\n    window: 50\n    hits: 10\n    scale: 0.5\n  ex2.com:\n    hits: 3\n");
        assertEquals(5, throttles.specFor("ex1.com").limit());
        assertEquals(50.0, throttles.specFor("ex1.com").windowSeconds());
        assertEquals(10, throttles.specFor("ex2.com").limit(), "an entry without a window is ignored");
        assertTrue(follower.isBlacklisted("ebay.com"));

        follower.apply("domains:\n  ex1.com:\n    window: 20\n    hits: 4\n");
        assertTrue(follower.isBlacklisted("ebay.com"), "a config without a blacklist key keeps the blacklist");
        assertEquals(4, throttles.specFor("ex1.com").limit());

        follower.apply("- not\n- a mapping\n");
        assertEquals(4, throttles.specFor("ex1.com").limit(), "text that is not a mapping keeps the last good config");

        follower.apply("");
        assertEquals(10, throttles.specFor("ex1.com").limit(), "Lost config from Zookeeper: back to the defaults");
        assertEquals(60.0, throttles.specFor("ex1.com").windowSeconds());
        assertEquals(3, changes.get(), "the scheduler hears of every change it must apply");

        follower.apply("blacklist: []\n");
        assertFalse(follower.isBlacklisted("ebay.com"));
    }

    @Test
    void domainsWrittenByHandInCapitalsOrUnicodeApplyToTheirQueues() {
        follower.apply("blacklist: [EVIL.example]\ndomains:\n  Bücher.example: {window: 50, hits: 4}\n  Example.COM: {window: 50, hits: 3}\n");
        assertEquals(4, throttles.specFor("xn--bcher-kva.example").limit(), "the queue key's spelling");
        assertEquals(3, throttles.specFor("example.com").limit());
        assertTrue(follower.isBlacklisted("evil.example"));
    }
}
