package org.scrapycluster.crawler.robots;

import java.util.Locale;

/**
 * Which robot a request is in a robots.txt, as Scrapy's robots.txt middleware chooses: {@code ROBOTSTXT_USER_AGENT}
 * when it is set, for every request; else the User-Agent the request sends (a crawl's {@code useragent}); else the
 * node's {@code USER_AGENT}, which the fetcher sends for it. The node's own name, {@code ROBOTSTXT_USER_AGENT} or else
 * {@code USER_AGENT}, is also the one whose {@code Crawl-delay} the domain's throttle honours (docs/throttling.md). A
 * name is known by its lower-case product token, as robots.txt groups name robots
 * ({@code MyBot/1.0 (+https://example.com/bot)} is {@code mybot}); one without a token ({@code *}, {@code /1.0}) names
 * no robot, and only the {@code *} group applies to it.
 *
 * @param nodeToken the token of the node's name ({@code ROBOTSTXT_USER_AGENT} when set, else {@code USER_AGENT}), worked
 *                  out once, as the record is made, from the name given: asked for every request
 * @param fixed     whether the node's name is {@code ROBOTSTXT_USER_AGENT}, which names every request whatever it sends
 */
public record RobotName(String nodeToken, boolean fixed) {

    /** The robot named {@code node} (its name, or its token), its token worked out once. */
    public RobotName {
        nodeToken = token(nodeToken);
    }

    /** The name of {@code ROBOTSTXT_USER_AGENT} ({@code robotsUserAgent}, null or blank when not set) and {@code USER_AGENT}. */
    public static RobotName of(String robotsUserAgent, String userAgent) {
        return robotsUserAgent != null && !robotsUserAgent.isBlank() ? new RobotName(robotsUserAgent, true)
                : new RobotName(userAgent, false);
    }

    /** The token a request sending {@code userAgent} answers to; null or blank when it sends none of its own. */
    public String tokenFor(String userAgent) {
        return fixed || userAgent == null || userAgent.isBlank() ? nodeToken() : token(userAgent);
    }

    /**
     * The lower-case product token of {@code name}; empty when it has none (or is {@code *}). The robots.txt parser
     * matches whole tokens only, and refuses {@code *}.
     */
    static String token(String name) {
        String token = name.strip().split("[/\\s]", 2)[0].toLowerCase(Locale.ROOT);
        return token.equals("*") ? "" : token;
    }
}
