package org.scrapycluster.embedded.origin;

import java.util.List;

/**
 * A robots.txt for a test domain, served at {@code /robots.txt}: allow everything, disallow some paths,
 * with or without a {@code Crawl-delay}. Immutable; the {@code with…} methods return a new one.
 */
public final class RobotsTxt implements Route {

    public static final String PATH = "/robots.txt";

    private final List<String> disallowed;
    private final int crawlDelaySeconds;

    private RobotsTxt(List<String> disallowed, int crawlDelaySeconds) {
        this.disallowed = List.copyOf(disallowed);
        this.crawlDelaySeconds = crawlDelaySeconds;
    }

    /** Everything may be crawled. */
    public static RobotsTxt allowAll() {
        return new RobotsTxt(List.of(), 0);
    }

    /** Paths starting with any of {@code prefixes} may not be crawled. */
    public static RobotsTxt disallow(String... prefixes) {
        return new RobotsTxt(List.of(prefixes), 0);
    }

    /** This robots.txt with {@code Crawl-delay: seconds}. */
    public RobotsTxt withCrawlDelay(int seconds) {
        return new RobotsTxt(disallowed, seconds);
    }

    /** The file as served. */
    public String text() {
        StringBuilder text = new StringBuilder("User-agent: *\n");
        if (disallowed.isEmpty()) {
            text.append("Disallow:\n");
        }
        for (String prefix : disallowed) {
            text.append("Disallow: ").append(prefix).append('\n');
        }
        if (crawlDelaySeconds > 0) {
            text.append("Crawl-delay: ").append(crawlDelaySeconds).append('\n');
        }
        return text.toString();
    }

    @Override
    public void serve(Exchange exchange) {
        exchange.sendText(200, "text/plain", text());
    }
}
