package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The tags of a robots.txt written as HTML, dropped as crawler-commons drops them, line by line. */
class RobotsMarkupTest {

    /** crawler-commons' own expression, applied to each line. */
    private static final Pattern TAG = Pattern.compile("<[^>]+>");
    private static final Pattern LINE_BREAK = Pattern.compile("(?<=[\n\r\u0085\u2028\u2029])");

    @Test
    void dropsWhatCrawlerCommonsExpressionDropsLineByLine() {
        Random random = new Random(7);
        String alphabet = "<<>>a /\n\r\u2028";
        for (int text = 0; text < 20_000; text++) {
            StringBuilder written = new StringBuilder();
            for (int length = random.nextInt(24); length > 0; length--) {
                written.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String expected = LINE_BREAK.splitAsStream(written).map(line -> TAG.matcher(line).replaceAll(""))
                    .collect(Collectors.joining());
            assertEquals(expected, RobotsMarkup.withoutTags(written.toString()), () -> "of " + written.toString().translateEscapes());
        }
    }

    @Test
    void aTagAcrossALineBreakIsLeftNoTagTheParserWouldStripAgainAndAByteOrderMarkAfterTagsStaysText() {
        byte[] across = ("<html\n>\nUser-agent: *\nDisallow: /x\n<<<").getBytes(StandardCharsets.UTF_8);
        assertEquals("<html\u2028>\nUser-agent: *\nDisallow: /x\n<<<",
                new String(RobotsMarkup.readable(across, "text/plain").content(), StandardCharsets.UTF_8));

        byte[] marked = "<pre>\uFEFFUser-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8);
        assertEquals("\uFEFF\uFEFFUser-agent: *\nDisallow: /private\n",
                new String(RobotsMarkup.readable(marked, "text/html").content(), StandardCharsets.UTF_8));
    }

    @Test
    void anHtmlPageWithAUserAgentLineIsGivenAsPlainUtf8AndAnyOtherFileAsItIs() {
        byte[] page = "\uFEFF<html>User-agent: *<br>\nDisallow: /x\n</html>".getBytes(StandardCharsets.UTF_16BE);
        RobotsMarkup.Readable read = RobotsMarkup.readable(page, "text/plain");
        assertEquals("text/plain", read.contentType());
        assertArrayEquals("User-agent: *\nDisallow: /x\n".getBytes(StandardCharsets.UTF_8), read.content());

        byte[] plain = "User-agent: *\nDisallow: /<x>\n".getBytes(StandardCharsets.UTF_8);
        assertSame(plain, RobotsMarkup.readable(plain, "text/plain").content(), "no HTML tag: read as written");
        byte[] noRobots = "<html><body>Not found</body></html>".getBytes(StandardCharsets.UTF_8);
        assertSame(noRobots, RobotsMarkup.readable(noRobots, "text/html").content(), "no user-agent: the parser allows all");
    }
}
