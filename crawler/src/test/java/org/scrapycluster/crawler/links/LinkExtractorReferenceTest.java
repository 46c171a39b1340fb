package org.scrapycluster.crawler.links;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The link spider's reference cases (docs/compatibility.md §4.8: unrestricted, allowed_domains, allow_regex, deny_regex,
 * deny_extensions) on a page built for the purpose, {@code links/reference-page.html}, whose expected links
 * were derived by hand. What the page exercises:
 * <ul>
 *   <li>a {@code <base href="/section/">}: relative hrefs resolve below /section/, absolute paths do not;</li>
 *   <li>an exact duplicate, a duplicate differing only by fragment, and {@code href=""} / {@code #top}, which
 *       canonicalise to the same /section/ (the first occurrence wins, with its text);</li>
 *   <li>mailto:, javascript:, ftp: and an upper-case {@code HTTPS:} on this http page (dropped), a broken IPv6 URL (skipped), an {@code a} without
 *       href, hrefs in a script and a {@code link} element (not links), an {@code area} (a link, empty text);</li>
 *   <li>default-denied extensions in any case, behind path parameters and before a query;</li>
 *   <li>foxnews.com links on a subdomain, in upper case and with a port (which {@code foxnews.com} does not allow),
 *       and notfoxnews.com, which is not one.</li>
 * </ul>
 * Then 150 random well-formed pages with the links Scrapy's own extractor found on them.
 */
class LinkExtractorReferenceTest {

    record ExpectedLink(String url, String text) {
    }

    record Case(String name, List<String> allowedDomains, List<String> allowRegex, List<String> denyRegex,
            List<String> denyExtensions, List<ExpectedLink> links, Integer count) {
        @Override
        public String toString() {
            return name;
        }
    }

    record Expectations(String responseUrl, String note, List<Case> cases) {
    }

    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    private static final Expectations EXPECTED = read("/links/reference-page.expected.json", new TypeReference<>() { });
    private static final String PAGE = page();

    static List<Case> cases() {
        return EXPECTED.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void extractsTheExpectedLinks(Case c) {
        LinkExtractor extractor = LinkExtractor.builder().allowDomains(c.allowedDomains()).allow(c.allowRegex())
                .deny(c.denyRegex()).denyExtensions(c.denyExtensions()).build();
        List<Link> links = extractor.extract(PAGE, EXPECTED.responseUrl());
        if (c.links() != null) {
            assertEquals(c.links().stream().map(l -> new Link(l.url(), l.text())).toList(), links);
        }
        if (c.count() != null) {
            assertEquals(c.count(), links.size());
        }
    }

    /** A random page and the links Scrapy 1.5's {@code LinkExtractor} finds on it ({@code links/scrapy-sampled.json}). */
    record SampledPage(String url, String html, List<ExpectedLink> links) {
        @Override
        public String toString() {
            return url + " " + html.substring(html.indexOf("<body>"), Math.min(html.length(), html.indexOf("<body>") + 60));
        }
    }

    static List<SampledPage> sampledPages() {
        return read("/links/scrapy-sampled.json", new TypeReference<>() { });
    }

    /** Random well-formed pages answered by Scrapy 1.5.2's extractor over lxml ({@code sample_links.py} writes them). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("sampledPages")
    void findsTheLinksScrapyFindsOnSampledPages(SampledPage page) {
        List<Link> expected = page.links().stream().map(l -> new Link(l.url(), l.text())).toList();
        assertEquals(expected, LinkExtractor.defaults().extract(page.html(), page.url()));
    }

    private static <T> T read(String resource, TypeReference<T> type) {
        try (InputStream in = LinkExtractorReferenceTest.class.getResourceAsStream(resource)) {
            return JSON.readValue(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String page() {
        try (InputStream in = LinkExtractorReferenceTest.class.getResourceAsStream("/links/reference-page.html")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
