package org.scrapycluster.crawler.robots;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.common.bytes.BytePrefix;

/**
 * A robots.txt written as an HTML page, its tags dropped before the parser reads it. crawler-commons does it itself, for
 * a file served as {@code text/html} or holding an {@code <html>}, {@code <head>} or {@code <body>} tag, with a regular
 * expression whose time grows with the square of a line's length where many {@code <} have no {@code >} after them:
 * minutes of a worker's time for one hostile file of half a megabyte. Here the same tags, {@code <} to the next {@code >}
 * on its line with at least one character between, go in one pass, and the parser is given plain text.
 */
final class RobotsMarkup {

    /** The parser's own test of a file that holds HTML. */
    private static final Pattern HTML_TAG = Pattern.compile("(?is)<(html|head|body)\\s*>");
    /** The parser's own test of a file that is robots.txt all the same; one without is read as allowing everything. */
    private static final Pattern USER_AGENT = Pattern.compile("(?i)user-agent:");
    private static final String PLAIN = "text/plain";

    /** The file to parse and its type. */
    record Readable(byte[] content, String contentType) {
    }

    private RobotsMarkup() {
    }

    /**
     * {@code content} as the parser should read it: without its tags, as UTF-8 plain text, when the parser would strip
     * them (an HTML page with a {@code user-agent:} line); as it is otherwise.
     */
    static Readable readable(byte[] content, String contentType) {
        Charset charset = StandardCharsets.UTF_8;
        int offset = 0;
        if (BytePrefix.UTF_8_MARK.starts(content)) {
            offset = BytePrefix.UTF_8_MARK.length();
        } else if (BytePrefix.UTF_16_LE_MARK.starts(content)) {
            charset = StandardCharsets.UTF_16LE;
            offset = BytePrefix.UTF_16_LE_MARK.length();
        } else if (BytePrefix.UTF_16_BE_MARK.starts(content)) {
            charset = StandardCharsets.UTF_16BE;
            offset = BytePrefix.UTF_16_BE_MARK.length();
        }
        String text = new String(content, offset, content.length - offset, charset);
        boolean html = contentType.toLowerCase(Locale.ROOT).startsWith("text/html") || HTML_TAG.matcher(text).find();
        if (!html || !USER_AGENT.matcher(text).find()) {
            return new Readable(content, contentType);
        }
        String plain = withoutTags(text);
        // A tag the parser's test finds across a line break is no tag of a line: it would read the file as HTML again,
        // and strip each line at the square of its cost. Its breaks become U+2028, which the parser breaks lines at too.
        plain = HTML_TAG.matcher(plain).replaceAll(tag -> Matcher.quoteReplacement(tag.group().replaceAll("[\r\n]", "\u2028")));
        // a U+FEFF the tags stood before is text, not the mark the parser drops: a mark of its own goes before it
        return new Readable(((plain.startsWith("\uFEFF") ? "\uFEFF" : "") + plain).getBytes(StandardCharsets.UTF_8), PLAIN);
    }

    /** {@code text} without its tags: each {@code <} with a {@code >} after it on its line and something between. */
    static String withoutTags(String text) {
        StringBuilder kept = new StringBuilder(text.length());
        int lineEnd = -1;
        int from = 0;
        for (int at = 0; at < text.length(); at++) {
            if (at > lineEnd) {
                lineEnd = lineEnd(text, at);
            }
            if (text.charAt(at) != '<') {
                continue;
            }
            int close = at + 1;
            while (close < lineEnd && text.charAt(close) != '>') {
                close++;
            }
            if (close == lineEnd) {
                at = lineEnd; // no tag closes on this line: none of its other < does either
                continue;
            }
            if (close > at + 1) {
                kept.append(text, from, at);
                from = close + 1;
                at = close;
            }
        }
        return kept.append(text, from, text.length()).toString();
    }

    /** Where the line holding {@code at} ends: its line break, or the end of the text, as the parser breaks lines. */
    private static int lineEnd(String text, int at) {
        int end = at;
        while (end < text.length() && "\n\r\u0085\u2028\u2029".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        return end;
    }
}
