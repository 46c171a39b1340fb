package org.scrapycluster.crawler.links;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;

class LinkExtractorTest {

    private static List<String> urls(LinkExtractor extractor, String html, String pageUrl) {
        return extractor.extract(html, pageUrl).stream().map(Link::url).toList();
    }

    /** The test origin's pages mix relative and absolute links; the extractor finds exactly the site's links. */
    @Test
    void findsEveryLinkOfASyntheticPage() {
        SyntheticSite site = SyntheticSite.builder().seed(11).domains(4).pagesPerDomain(30).pageBytes(15_000)
                .linksPerPage(20).crossDomainShare(0.4).build();
        for (PageRef page : List.of(new PageRef(0, 0), new PageRef(2, 17), new PageRef(3, 29))) {
            String pageUrl = base(page.domain()) + page.path();
            String html = new String(site.render(page, LinkExtractorTest::base), StandardCharsets.UTF_8);
            List<Link> expected = site.links(page).stream()
                    .map(target -> new Link(base(target.domain()) + target.path(), site.anchorText(page.domain(), target)))
                    .toList();
            assertEquals(expected, LinkExtractor.defaults().extract(html, pageUrl));
        }
    }

    private static String base(int domain) {
        return "http://127.0.0." + (domain + 2) + ":8080";
    }

    @Test
    void resolvesAgainstThePageWithoutABase() {
        String html = "<a href='b.html'>b</a><a href='../up.html'>up</a><a href='?q=1'>q</a><a href='//other.org/x'>o</a>";
        assertEquals(List.of("http://site.example/dir/b.html", "http://site.example/up.html",
                "http://site.example/dir/page.html?q=1", "http://other.org/x"),
                urls(LinkExtractor.defaults(), html, "http://site.example/dir/page.html"));
    }

    @Test
    void baseHrefMustBeQuotedAndEarly() {
        assertEquals(List.of("http://site.example/a.html"), urls(LinkExtractor.defaults(),
                "<base href=/other/><a href='a.html'>a</a>", "http://site.example/"), "an unquoted base is ignored");
        assertEquals(List.of("http://cdn.example/assets/a.html"), urls(LinkExtractor.defaults(),
                "<BASE target=_top HREF='http://cdn.example/assets/'><a href='a.html'>a</a>", "http://site.example/"));
        assertEquals(List.of("http://site.example/other/a.html"), urls(LinkExtractor.defaults(),
                "<basefont size=3><base href=/x/><base href='/other/'><a href='a.html'>a</a>", "http://site.example/"),
                "the first usable base counts, whatever precedes it");
        assertEquals(List.of("http://site.example/other/a.html"), urls(LinkExtractor.defaults(),
                "<base\u00A0href=\"\u3000/other/\u00A0\"><a href='a.html'>a</a>", "http://site.example/"),
                "white space as Python reads it: no-break and ideographic spaces too");
        String late = "<p>" + "x".repeat(5000) + "</p><base href='/other/'><a href='a.html'>a</a>";
        assertEquals(List.of("http://site.example/a.html"), urls(LinkExtractor.defaults(), late, "http://site.example/"));
    }

    /** Only what the crawler fetches is listed: file links would read its own disk; Scrapy's scheme check is case-sensitive. */
    @Test
    void keepsOnlyHttpAndHttpsLinksSpelledInLowerCase() {
        String html = "<a href='file:///etc/passwd'>f</a><a href='ftp://files.example/x'>ftp</a>"
                + "<a href='mailto:a@b.example'>m</a><a href='javascript:go()'>js</a><a href='https://s.example/'>s</a>"
                + "<a href='HTTP://Upper.example/u'>upper</a><a href='HTTPS://Upper.example/s'>upper s</a><a href='/rel'>r</a>";
        assertEquals(List.of("https://s.example/", "http://upper.example/u", "http://site.example/rel"),
                urls(LinkExtractor.defaults(), html, "http://site.example/"),
                "on an http page, HTTP:// resolves to http:// and is kept; HTTPS:// stays as written and is dropped");
        assertEquals(List.of("https://s.example/", "https://upper.example/s", "https://site.example/rel"),
                urls(LinkExtractor.defaults(), html, "https://site.example/"));
    }

    /** Scrapy's url_is_from_any_domain: the network location in lower case, port and user info included. */
    @Test
    void allowedDomainsCompareTheNetworkLocationAsScrapyDoes() {
        LinkExtractor extractor = LinkExtractor.builder().allowDomains(List.of("Shop.Example", "bücher.de", "port.example:8080")).build();
        String html = "<a href='http://shop.example:8080/a'>port</a><a href='http://www.shop.example/b'>sub</a>"
                + "<a href='http://myshop.example/c'>other</a><a href='http://www.xn--bcher-kva.de/d'>idn</a>"
                + "<a href='http://www.bücher.de/d'>unicode</a><a href='http://user@shop.example/e'>user</a>"
                + "<a href='http://user@www.shop.example/f'>user sub</a><a href='http://port.example/g'>no port</a>"
                + "<a href='http://www.port.example:8080/h'>port sub</a><a href='http://SHOP.EXAMPLE/i'>upper</a>";
        // the Unicode spelling of the punycode link before it is that link, dropped before the filters: the filter compared
        // only the punycode one, which does not end in the Unicode domain, as in the original
        assertEquals(List.of("http://www.shop.example/b", "http://user@www.shop.example/f",
                "http://www.port.example:8080/h", "http://shop.example/i"), urls(extractor, html, "http://start.example/"));
        assertEquals(List.of("http://www.xn--bcher-kva.de/d"), urls(extractor, "<a href='http://www.bücher.de/d'>unicode</a>",
                "http://start.example/"), "the Unicode spelling alone is compared as written");
    }

    @Test
    void allowedDomainsAreTakenAsWrittenNotTrimmed() {
        String html = "<a href='http://example.com/a'>a</a><a href='http://example.com./b'>dot</a>";
        assertEquals(List.of(), urls(LinkExtractor.builder().allowDomains(List.of(" example.com ")).build(), html,
                "http://start.example/"));
        assertEquals(List.of("http://example.com./b"), urls(LinkExtractor.builder().allowDomains(List.of("")).build(), html,
                "http://start.example/"), "an empty domain allows what ends with a dot");
        assertEquals(2, urls(LinkExtractor.builder().allowDomains(List.of()).build(), html, "http://start.example/").size(),
                "no domain allows any");
    }

    @Test
    void invalidRegexIsRefusedWithItsName() {
        IllegalArgumentException lookahead = assertThrows(IllegalArgumentException.class,
                () -> LinkExtractor.builder().allow(List.of("(?=x)y")).build());
        assertTrue(lookahead.getMessage().startsWith("allow regex '(?=x)y' is not a valid RE2 expression"), lookahead.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LinkExtractor.builder().deny(List.of("(unclosed")).build());
    }

    /** A pattern that makes backtracking engines take exponential time on a near miss finishes at once in RE2. */
    @Test
    void catastrophicPatternsRunInLinearTime() {
        LinkExtractor extractor = LinkExtractor.builder().deny(List.of("(a+)+$")).build();
        String nearMiss = "http://site.example/" + "a".repeat(5000) + "!";
        assertEquals(List.of(nearMiss), urls(extractor, "<a href='" + nearMiss + "'>x</a><a href='/aaa'>y</a>",
                "http://site.example/"), "the near miss is kept, the URL ending in a's is denied");
    }

    /** The original's parser strips an href as Python's str.strip() does: a no-break or ideographic space at an end too. */
    @Test
    void anHrefIsStrippedAsPythonStripsText() {
        List<Link> links = LinkExtractor.defaults().extract("<a href=' \t/a\n'>a</a><a href='&nbsp;/page'>b</a>"
                + "<a href='/q&#x3000;'>c</a><a href='/r&nbsp;s'>d</a>", "http://h/d/p");
        assertEquals(List.of("http://h/a", "http://h/page", "http://h/q", "http://h/r%C2%A0s"), links.stream().map(Link::url).toList());
    }

    @Test
    void anchorTextIsTheElementsTextAsItStands() {
        List<Link> links = LinkExtractor.defaults().extract("<a href='/x'> \n <span>Two</span>&nbsp;words <!-- no --></a>"
                + "<a href='/y'><img src='i.png'></a><a href='/z'>a<br>b</a>", "http://site.example/");
        assertEquals(List.of(new Link("http://site.example/x", " \n Two\u00a0words "), new Link("http://site.example/y", ""),
                new Link("http://site.example/z", "ab")), links);
    }

    /** Plain URLs are answered from the text after {@code ://}, the others from their parsed host: the same rule either way. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"http://example.com/a, true", "http://www.example.com:8080/a, false", "http://example.com:8080/a, false",
        "http://example.com.evil/a, false", "http://notexample.com/a, false", "HTTP://WWW.EXAMPLE.COM/a, true",
        "http://user@example.com/a, false", "http://user@www.example.com/a, true", "http://x.example.com@evil.org/a, false",
        "http://example.com?x=other.org, true", "http://other.org/?x=example.com, false", "http://other.org#.example.com, false",
        "http://example.com./a, false", "HTTP://EXAMPLE.COM./a, false"})
    void allowedDomainsLookAtTheNetworkLocation(String url, boolean allowed) {
        assertEquals(allowed, LinkExtractor.builder().allowDomains(List.of("example.com")).build().allowsDomain(url));
    }

    /** Plain URLs are answered from their last segment, the others from their parsed path: the same rule either way. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"http://h/a/b.PDF, false", "http://h/a/b.pdf, false", "http://h:8080/b.html, true", "http://h/a.pdf/b, true",
        "http://h/.pdf, true", "http://h/a/b.pdf?x=1, false", "http://h/a/b.html?x=.pdf, true", "http://h/a/b.pdf#f, false",
        "http://h/a/b.pdf;p, false", "HTTP://H/a/b.pdf, false", "http://h/a/b.pdf/, true"})
    void denyExtensionsLookAtThePathsLastSegment(String url, boolean allowed) {
        assertEquals(allowed, LinkExtractor.defaults().allowsExtension(url));
    }

    /** A full-width number sign in a host is no fragment: the link is not read as one to the host before it. */
    @Test
    void aHostWhoseNameprepHoldsADelimiterIsNotCutThere() {
        LinkExtractor allowed = LinkExtractor.builder().allowDomains(List.of("allowed.example")).build();
        List<String> links = urls(allowed, "<a href='http://evil.example\uFF03.allowed.example/x'>x</a>", "http://start.example/");
        assertTrue(links.stream().noneMatch(url -> url.startsWith("http://evil.example/") || url.equals("http://evil.example")),
                links.toString());
    }

    /** The original's parser drops a repeated link by its canonical form, before the filters see either spelling. */
    @Test
    void twoSpellingsOfOneUrlAreOneLinkBeforeTheFilters() {
        String page = "<a href='/a?x=1&y=2'>first</a><a href='/a?y=2&x=1'>second</a>";
        LinkExtractor denyingTheFirst = LinkExtractor.builder().deny(List.of("x=1&y")).build();

        assertEquals(List.of(), denyingTheFirst.extract(page, "http://site.example/"), "the second is the first, which is denied");
        assertEquals(List.of(new Link("http://site.example/a?x=1&y=2", "first")),
                LinkExtractor.builder().deny(List.of("y=2&x")).build().extract(page, "http://site.example/"));
        assertEquals(List.of(new Link("http://site.example/a?x=1&y=2", "first")),
                LinkExtractor.defaults().extract(page, "http://site.example/"), "unfiltered, one link: the first");
    }

    @Test
    void aDenyExtensionIsComparedAsGivenWithTheUrlsLowerCaseExtensionAsInScrapy() {
        LinkExtractor upper = LinkExtractor.builder().denyExtensions(List.of("PDF")).build();
        LinkExtractor lower = LinkExtractor.builder().denyExtensions(List.of("pdf")).build();

        assertEquals(true, upper.allowsExtension("http://h/a/b.pdf"), "'PDF' denies nothing: URLs' extensions are lower case");
        assertEquals(true, upper.allowsExtension("http://h/a/b.PDF"));
        assertEquals(false, lower.allowsExtension("http://h/a/b.PDF"));
    }

    @ParameterizedTest(name = "{0} -> ''{1}''")
    @CsvSource({"/a/b.HTML, .html", "/a/b.tar.gz, .gz", "/a.b/c, ''", "/.hidden, ''", "/..x, ''", "/a..x, .x", "/file., .",
        "'', ''", "/, ''"})
    void extensionAsPosixpathSplitext(String path, String extension) {
        assertEquals(extension, LinkExtractor.extension(path));
    }
}
