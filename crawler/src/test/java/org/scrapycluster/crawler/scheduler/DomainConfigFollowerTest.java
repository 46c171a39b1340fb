package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.embedded.junit.CapturedLog;

/** How the ZooKeeper text is applied: a config, garbage (kept), an emptied node (reverted), the blacklist rule (docs/compatibility.md §5.3). */
class DomainConfigFollowerTest {

    private final DomainThrottles throttles = new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 10, true, "ip", 1_000);
    private final AtomicInteger changes = new AtomicInteger();
    private final List<Set<String>> changed = new ArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final DomainConfigFollower follower = new DomainConfigFollower(throttles, "link", new CrawlerMetrics(meters, "link", "n1"),
            domains -> {
                changes.incrementAndGet();
                changed.add(domains);
            });

    /**
     * Text a crawler must not use — a nesting too deep to read, a tag that names a Java class, a document
     * over the reader's size limit — keeps the last good config, and is told in one warning that names what was wrong
     * (not the text itself, which may be megabytes) and counted.
     */
    @ParameterizedTest
    @ValueSource(strings = {"deep", "tag", "huge"})
    void hostileTextKeepsTheLastGoodConfigWithOneWarningNamingTheProblemAndIsCounted(String kind) {
        follower.apply("blacklist: [ebay.com]\ndomains:\n  ex1.com: {window: 50, hits: 4}\n");
        String text = switch (kind) {
            case "deep" -> "domains: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n";
            case "tag" -> "domains: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://127.0.0.1/\"]]]]\n";
            default -> "domains:\n" + "  ex1.com: {window: 50, hits: 1}\n".repeat(120_000);
        };
        List<ILoggingEvent> logged = CapturedLog.of(DomainConfigFollower.class.getName(), () -> follower.apply(text));

        assertEquals(4, throttles.specFor("ex1.com").limit(), "the last good config stays");
        assertTrue(follower.isBlacklisted("ebay.com"));
        assertEquals(1, changes.get(), "nothing changed for the scheduler to apply");
        assertEquals(1, logged.size(), logged.toString());
        ILoggingEvent warning = logged.getFirst();
        assertEquals(Level.WARN, warning.getLevel());
        String said = warning.getFormattedMessage() + " " + warning.getKeyValuePairs();
        assertTrue(said.contains("cannot be read as YAML"), said);
        assertTrue(said.length() < 1_000, "the text is not logged: " + said.length() + " characters");
        assertEquals(1.0, meters.get("crawler.errors").tag("kind", "zookeeper_config").counter().count());
    }

    @Test
    void aConfigOfThousandsOfDomainsIsAppliedWithAFewLinesOfLog() {
        StringBuilder text = new StringBuilder("domains:\n");
        for (int i = 0; i < 5_000; i++) {
            text.append("  site").append(i).append(".com: {window: 60, hits: 10, extra: 1}\n"); // each with a key not read
        }
        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(DomainConfigFollower.class, Level.INFO)) {
            follower.apply(text.toString());
            logged = log.events();
        }

        assertEquals(10, throttles.specFor("site4999.com").limit());
        assertEquals(22, logged.size(), "twenty problems, how many more, and the change");
        assertEquals("More parts of the Zookeeper config are not applied as written", logged.get(20).getFormattedMessage());
        String change = logged.get(21).getFormattedMessage() + " " + logged.get(21).getKeyValuePairs();
        assertTrue(change.contains("… 5000 in all]") && change.length() < 1_000, change);
    }

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

        follower.apply("domains:\n  ex1.com: {window: 20, hits: 4}\n  ex3.com: {window: 20, hits: 4}\n");
        follower.apply("domains:\n  ex1.com: {window: 20, hits: 4}\n  ex3.com: {window: 20, hits: 5}\n  ex4.com: {window: 1, hits: 1}\n");
        assertEquals(List.of(Set.of("ex1.com"), Set.of("ex1.com"), Set.of("ex1.com"), Set.of(), Set.of("ex1.com", "ex3.com"),
                Set.of("ex3.com", "ex4.com")), changed, "each change names the domains whose throttle it adds, changes or removes");
    }

    @Test
    void aBlacklistThatIsNeitherAListNorTextKeepsTheBlacklistWhileTheRestApplies() {
        follower.apply("blacklist: [ebay.com]\n");
        List<ILoggingEvent> logged = CapturedLog.of(DomainConfigFollower.class.getName(),
                () -> follower.apply("blacklist: 5\ndomains:\n  ex1.com: {window: 20, hits: 7}\n"));

        assertTrue(follower.isBlacklisted("ebay.com"));
        assertEquals(7, throttles.specFor("ex1.com").limit());
        assertEquals("Part of the Zookeeper config is not applied as written", logged.getFirst().getFormattedMessage());
        assertTrue(logged.getFirst().getKeyValuePairs().toString().contains("must be a list of domains, was 5"), logged.toString());
    }

    @Test
    void anEmptiedNodeWarnsThatTheBlacklistKeptHereIsNotOneNewCrawlersHave() {
        follower.apply("domains:\n  ex1.com: {window: 20, hits: 4}\n");
        assertEquals(List.of("INFO Lost config from Zookeeper"), loggedEmptying());

        follower.apply("blacklist: [ebay.com]\n");
        assertEquals(List.of("WARN Lost config from Zookeeper: throttles back to the defaults; this crawler keeps its blacklist "
                + "of 1 domain, which crawlers started from now on do not have until the config is written again"), loggedEmptying());
        assertTrue(follower.isBlacklisted("ebay.com"), "kept, as before");
    }

    /** What emptying the node logs at INFO and above, each line as its level and message. */
    private List<String> loggedEmptying() {
        try (CapturedLog log = CapturedLog.start(DomainConfigFollower.class, Level.INFO)) {
            follower.apply("");
            return log.events().stream().map(event -> event.getLevel() + " " + event.getFormattedMessage()).toList();
        }
    }

    /**
     * Before a config is in force every domain is held back; text it cannot use does not end that, and the health check
     * names what is wrong with it; an empty node (the empty config) or a usable config does.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "domains:\n  ex1.com: {window: 50, hits: 4}\n"})
    void everyDomainIsHeldBackUntilAConfigIsInForce(String usable) {
        assertTrue(follower.holdsBack("ex1.com"), "nothing read yet");
        follower.apply("- not\n- a mapping\n");
        assertTrue(follower.holdsBack("ex1.com"), "nothing usable read yet");
        String detail = follower.health().detail();
        assertTrue(detail.contains("is not usable") && detail.contains("no requests are handed out"), detail);
        assertEquals(0, changes.get());

        follower.apply(usable);
        assertFalse(follower.holdsBack("ex1.com"));
        assertEquals(1, changes.get(), "the scheduler hears that it may hand out");
    }

    @Test
    void domainsWrittenByHandInCapitalsOrUnicodeApplyToTheirQueues() {
        follower.apply("blacklist: [EVIL.example]\ndomains:\n  Bücher.example: {window: 50, hits: 4}\n  Example.COM: {window: 50, hits: 3}\n");
        assertEquals(4, throttles.specFor("xn--bcher-kva.example").limit(), "the queue key's spelling");
        assertEquals(3, throttles.specFor("example.com").limit());
        assertTrue(follower.isBlacklisted("evil.example"));
    }
}
