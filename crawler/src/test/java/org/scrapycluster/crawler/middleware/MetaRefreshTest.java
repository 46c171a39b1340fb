package org.scrapycluster.crawler.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Where Scrapy 1.5 (w3lib's get_meta_refresh) finds a page's meta refresh, and where it does not. */
class MetaRefreshTest {

    private static final String PAGE = "http://example.com/dir/page.html";

    @Test
    void theDelayAndTheTargetResolvedAgainstThePage() {
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/dir/next.html")),
                MetaRefresh.in("<html><head><meta http-equiv=\"refresh\" content=\"0;url=next.html\">", PAGE));
        assertEquals(Optional.of(new MetaRefresh(5, "http://other.test/x")),
                MetaRefresh.in("<META HTTP-EQUIV='Refresh' CONTENT='5; URL=http://other.test/x'>", PAGE));
        assertEquals(Optional.of(new MetaRefresh(2.5, "http://example.com/quoted")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"2.5; url='/quoted'\">", PAGE));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/a?x=1&y=2")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0; url=/a?x=1&amp;y=2\">", PAGE), "references decoded");
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/dir/caf%C3%A9")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0;url=café\">", PAGE), "made safe");
    }

    /** A query's {@code &name} is read as a browser reads it in an attribute: a legacy reference only when it ends. */
    @Test
    void referencesInTheUrlAreReadAsABrowserReadsThemInAnAttribute() {
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/s?x=1&region=us&currency=EUR&ampm=pm&lang=en")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0; url=/s?x=1&region=us&currency=EUR&ampm=pm&lang=en\">",
                        PAGE));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/s?r=%C2%AE&c=%C2%A9&e=%C3%A9&reg=1")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0; url=/s?r=&reg;&c=&copy&e=&eacute;&reg=1\">", PAGE));
    }

    /** White space as Python's {@code \\s} reads it, as w3lib's pattern runs there: a no-break space (or {@code &nbsp;}) too. */
    @Test
    void whiteSpaceIsWhatPythonCallsWhiteSpace() {
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/x")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0;&nbsp;url=/x\">", PAGE));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/x")),
                MetaRefresh.in("<meta\u00A0http-equiv=\"refresh\" content=\"0;\u3000url=/x\">", PAGE));
    }

    @Test
    void notInScriptsCommentsOrPastTheFirst4096Characters() {
        String refresh = "<meta http-equiv=\"refresh\" content=\"0;url=/x\">";
        assertEquals(Optional.empty(), MetaRefresh.in("<script>var s = '" + refresh + "';</script>", PAGE));
        assertEquals(Optional.empty(), MetaRefresh.in("<noscript>" + refresh + "</noscript>", PAGE));
        assertEquals(Optional.empty(), MetaRefresh.in("<!-- " + refresh + " -->", PAGE));
        assertEquals(Optional.empty(), MetaRefresh.in(" ".repeat(MetaRefresh.SCANNED_CHARS) + refresh, PAGE));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/x")),
                MetaRefresh.in("<script>1</script><!-- c -->" + refresh, PAGE), "after them it counts");
    }

    @Test
    void onlyARefreshWithADelayAndAUrlInTheOrderW3libReadsIt() {
        assertEquals(Optional.empty(), MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"30\">", PAGE), "no URL: a reload");
        assertEquals(Optional.empty(), MetaRefresh.in("<meta content=\"0;url=/x\" http-equiv=\"refresh\">", PAGE),
                "content before http-equiv is not read, as in the original");
        assertEquals(Optional.empty(), MetaRefresh.in("<meta name=\"description\" content=\"refresh your skills\">", PAGE));
    }
}
