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
    /**
     * A delay's line, its value taken whole (possessively: a line of a million digits and an {@code x} costs one pass,
     * not the square of it), told readable or not by {@link #unreadable}.
     */
    private static final Pattern DELAY = Pattern.compile(
            "(?im)^([ \\t]*crawl-delay[ \\t]*:[ \\t]*)([0-9.eE+-]++)(?=[ \\t]*(?:#|\\r|\\n|$))");
    private static final Pattern WITH_EXPONENT = Pattern.compile("[0-9]*\\.?[0-9]+[eE][+-]?[0-9]+");
    /** The longest value with an exponent read: longer ones are no number a site means. */
    private static final int LONGEST_WITH_EXPONENT = 64;

    private LongCrawlDelays() {
    }

    /** {@code content} with each delay crawler-commons cannot read rewritten; {@code content} itself when it has none. */
    static byte[] readable(byte[] content) {
        // ISO-8859-1 maps every byte to one character and back, so the bytes around the delays are kept whatever they are
        String text = new String(content, StandardCharsets.ISO_8859_1);
        Matcher delay = DELAY.matcher(text);
        StringBuilder rewritten = null;
        while (delay.find()) {
            String value = delay.group(2);
            if (!unreadable(value)) {
                continue;
            }
            if (rewritten == null) {
                rewritten = new StringBuilder(text.length());
            }
            double seconds = Double.parseDouble(value);
            delay.appendReplacement(rewritten, Matcher.quoteReplacement(delay.group(1)
                    + (seconds >= LONGEST_SECONDS ? Long.toString(LONGEST_SECONDS) : Double.toString(seconds))));
        }
        if (rewritten == null) {
            return content;
        }
        delay.appendTail(rewritten);
        return rewritten.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether crawler-commons drops {@code value}: a whole number of ten digits or more, or a number with an exponent. */
    private static boolean unreadable(String value) {
        if (value.chars().allMatch(Character::isDigit)) {
            return value.length() >= 10;
        }
        return value.length() <= LONGEST_WITH_EXPONENT && WITH_EXPONENT.matcher(value).matches();
    }
}
