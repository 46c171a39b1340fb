package org.scrapycluster.crawler.robots;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.crawler.scheduler.DomainThrottles;

/**
 * A robots.txt with its {@code Crawl-delay} values that crawler-commons cannot read written so that it can: a whole
 * number of 2<sup>31</sup> seconds or more, or a number with an exponent ({@code 1e3}), which it drops as if the line
 * were not there. A site asking for the longest delay would otherwise get none; rewritten, a delay as long as the
 * longest the throttle honours ({@link DomainThrottles#LONGEST_CRAWL_DELAY}, docs/throttling.md) or longer reads as
 * that, and any other as its number of seconds.
 * Every other byte stays as it is.
 */
final class LongCrawlDelays {

    private static final long LONGEST_SECONDS = DomainThrottles.LONGEST_CRAWL_DELAY.toSeconds();
    private static final Pattern UNREADABLE = Pattern.compile(
            "(?im)^([ \\t]*crawl-delay[ \\t]*:[ \\t]*)([0-9]{10,}|[0-9]*\\.?[0-9]+[eE][+-]?[0-9]+)(?=[ \\t]*(?:#|\\r|\\n|$))");

    private LongCrawlDelays() {
    }

    /** {@code content} with each delay crawler-commons cannot read rewritten; {@code content} itself when it has none. */
    static byte[] readable(byte[] content) {
        // ISO-8859-1 maps every byte to one character and back, so the bytes around the delays are kept whatever they are
        String text = new String(content, StandardCharsets.ISO_8859_1);
        Matcher delay = UNREADABLE.matcher(text);
        if (!delay.find()) {
            return content;
        }
        StringBuilder rewritten = new StringBuilder(text.length());
        do {
            double seconds = Double.parseDouble(delay.group(2));
            delay.appendReplacement(rewritten, Matcher.quoteReplacement(delay.group(1)
                    + (seconds >= LONGEST_SECONDS ? Long.toString(LONGEST_SECONDS) : Double.toString(seconds))));
        } while (delay.find());
        delay.appendTail(rewritten);
        return rewritten.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
