package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import crawlercommons.robots.SimpleRobotRulesParser;

/** Crawl-delays crawler-commons drops are read as the throttle would take them: a day at most. */
class LongCrawlDelaysTest {

    private static final long DAY_MILLIS = 86_400_000L;

    @Test
    void aDelayTooLongForCrawlerCommonsIsReadAsADay() {
        for (String delay : List.of("9999999999", "99999999999999999999", "1e309", "2E6")) {
            assertEquals(DAY_MILLIS, crawlDelayMillis("User-agent: *\nCrawl-delay: " + delay + "\nDisallow: /private\n"), delay);
        }
    }

    @Test
    void aDelayWithAnExponentIsReadAsItsSeconds() {
        assertEquals(1_000_000L, crawlDelayMillis("User-agent: *\ncrawl-delay:1e3 # a thousand seconds\r\n"));
    }

    @Test
    void aFileWhoseDelaysCrawlerCommonsReadsIsLeftAsItIs() {
        byte[] file = "User-agent: *\nCrawl-delay: 5\nCrawl-delay: 0.5\nDisallow: /\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        assertSame(file, LongCrawlDelays.readable(file));
        assertEquals(5_000L, crawlDelayMillis("User-agent: *\nCrawl-delay: 5\n"));
    }

    /** A hostile line, a long run of digits that ends in no delay, is read in one pass (not the square of its length). */
    @Test
    void aLongRunOfDigitsThatIsNoDelayIsLeftAsItIs() {
        byte[] file = ("User-agent: *\nCrawl-delay: " + "1".repeat(200_000) + "x\nDisallow: /private\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        assertSame(file, LongCrawlDelays.readable(file));
        assertEquals(DAY_MILLIS, crawlDelayMillis("User-agent: *\nCrawl-delay: " + "1".repeat(200_000) + "\n"),
                "a long delay all the same");
    }

    private static long crawlDelayMillis(String file) {
        byte[] readable = LongCrawlDelays.readable(file.getBytes(StandardCharsets.ISO_8859_1));
        // parsed as RobotsCache parses: no ceiling on the delay
        return new SimpleRobotRulesParser(Long.MAX_VALUE, SimpleRobotRulesParser.DEFAULT_MAX_WARNINGS)
                .parseContent("http://example.com/robots.txt", readable, "text/plain", List.of()).getCrawlDelay();
    }
}
