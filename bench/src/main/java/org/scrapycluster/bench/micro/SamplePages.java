package org.scrapycluster.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;

/**
 * The pages and URLs the micro benchmarks work on: the crawl benchmark's synthetic site (about 15 KB pages
 * with 20 links, a fifth of them to other domains), so that the figures compare with {@code bench crawl}.
 */
final class SamplePages {

    static final int COUNT = 64;

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(2024).domains(50).pagesPerDomain(200)
            .pageBytes(15_000).linksPerPage(20).crossDomainShare(0.2).build();

    private SamplePages() {
    }

    /** The first {@link #COUNT} pages' URLs. */
    static List<String> urls() {
        return pages().stream().map(page -> base(page.domain()) + page.path()).toList();
    }

    /** The first {@link #COUNT} pages' HTML. */
    static List<String> html() {
        return pages().stream().map(page -> new String(SITE.render(page, SamplePages::base), StandardCharsets.UTF_8)).toList();
    }

    /** URLs as links are written in the wild: query arguments out of order, escapes, fragments, upper case. */
    static List<String> untidyUrls() {
        return urls().stream().map(url -> url.replace("http://", "HTTP://") + "?b=2&a=%7e1&q=caf%C3%A9 x#part").toList();
    }

    private static List<PageRef> pages() {
        return SITE.pages().subList(0, COUNT);
    }

    private static String base(int domain) {
        return "http://127.0.0." + (domain + 2) + ":8080";
    }
}
