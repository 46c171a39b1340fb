package org.scrapycluster.crawler.middleware;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Where Scrapy 1.5 (w3lib's get_meta_refresh) finds a page's meta refresh, and where it does not. */
class MetaRefreshTest {

    private static final String PAGE = "http://example.com/dir/page.html";

    @Test
    void theDelayAndTheTargetResolvedAgainstThePage() {
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/dir/next.html")),
                MetaRefresh.in("<html><head><meta http-equiv=\"refresh\" content=\"0;url=next.html\">", PAGE, UTF_8));
        assertEquals(Optional.of(new MetaRefresh(5, "http://other.test/x")),
                MetaRefresh.in("<META HTTP-EQUIV='Refresh' CONTENT='5; URL=http://other.test/x'>", PAGE, UTF_8));
        assertEquals(Optional.of(new MetaRefresh(2.5, "http://example.com/quoted")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"2.5; url='/quoted'\">", PAGE, UTF_8));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/a?x=1&y=2")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0; url=/a?x=1&amp;y=2\">", PAGE, UTF_8), "references decoded");
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/dir/caf%C3%A9")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0;url=café\">", PAGE, UTF_8), "made safe");
    }

    /** A query's {@code &name} is read as a browser reads it in an attribute: a legacy reference only when it ends. */
    @Test
    void referencesInTheUrlAreReadAsABrowserReadsThemInAnAttribute() {
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/s?x=1&region=us&currency=EUR&ampm=pm&lang=en")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0; url=/s?x=1&region=us&currency=EUR&ampm=pm&lang=en\">",
                        PAGE, UTF_8));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/s?r=%C2%AE&c=%C2%A9&e=%C3%A9&reg=1")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0; url=/s?r=&reg;&c=&copy&e=&eacute;&reg=1\">", PAGE, UTF_8));
    }

    /** White space as Python's {@code \\s} reads it, as w3lib's pattern runs there: a no-break space (or {@code &nbsp;}) too. */
    @Test
    void whiteSpaceIsWhatPythonCallsWhiteSpace() {
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/x")),
                MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"0;&nbsp;url=/x\">", PAGE, UTF_8));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/x")),
                MetaRefresh.in("<meta\u00A0http-equiv=\"refresh\" content=\"0;\u3000url=/x\">", PAGE, UTF_8));
    }

    @Test
    void notInScriptsCommentsOrPastTheFirst4096Characters() {
        String refresh = "<meta http-equiv=\"refresh\" content=\"0;url=/x\">";
        assertEquals(Optional.empty(), MetaRefresh.in("<script>var s = '" + refresh + "';</script>", PAGE, UTF_8));
        assertEquals(Optional.empty(), MetaRefresh.in("<noscript>" + refresh + "</noscript>", PAGE, UTF_8));
        assertEquals(Optional.empty(), MetaRefresh.in("<!-- " + refresh + " -->", PAGE, UTF_8));
        assertEquals(Optional.empty(), MetaRefresh.in(" ".repeat(MetaRefresh.SCANNED_CHARS) + refresh, PAGE, UTF_8));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/x")),
                MetaRefresh.in("<script>1</script><!-- c -->" + refresh, PAGE, UTF_8), "after them it counts");
    }

    @Test
    void onlyARefreshWithADelayAndAUrlInTheOrderW3libReadsIt() {
        assertEquals(Optional.empty(), MetaRefresh.in("<meta http-equiv=\"refresh\" content=\"30\">", PAGE, UTF_8), "no URL: a reload");
        assertEquals(Optional.empty(), MetaRefresh.in("<meta content=\"0;url=/x\" http-equiv=\"refresh\">", PAGE, UTF_8),
                "content before http-equiv is not read, as in the original");
        assertEquals(Optional.empty(), MetaRefresh.in("<meta name=\"description\" content=\"refresh your skills\">", PAGE, UTF_8));
    }

    @Test
    void theQueryIsEscapedInThePagesEncodingThePathInUtf8() {
        String refresh = "<meta http-equiv=\"refresh\" content=\"0; url=/caf\u00e9?q=\u00e9t\u00e9#\u00e9\">";
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/caf%C3%A9?q=%E9t%E9#%E9")),
                MetaRefresh.in(refresh, PAGE, Charset.forName("windows-1252")));
        assertEquals(Optional.of(new MetaRefresh(0, "http://example.com/caf%C3%A9?q=%C3%A9t%C3%A9#%C3%A9")),
                MetaRefresh.in(refresh, PAGE, UTF_8));
    }
}
