package org.scrapycluster.embedded.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SyntheticSiteTest {

    private final SyntheticSite site = SyntheticSite.builder().seed(42).domains(5).pagesPerDomain(50)
            .pageBytes(15_000).linksPerPage(20).crossDomainShare(0.3).build();

    @Test
    void sameSeedSameLinks() {
        SyntheticSite again = SyntheticSite.builder().seed(42).domains(5).pagesPerDomain(50).pageBytes(15_000)
                .linksPerPage(20).crossDomainShare(0.3).build();
        for (PageRef page : site.pages()) {
            assertEquals(site.links(page), again.links(page));
        }
        SyntheticSite other = SyntheticSite.builder().seed(43).domains(5).pagesPerDomain(50).pageBytes(15_000)
                .linksPerPage(20).crossDomainShare(0.3).build();
        assertNotEquals(site.links(new PageRef(0, 0)), other.links(new PageRef(0, 0)));
    }

    @Test
    void linksAreDistinctExistingAndStartWithTheNextPage() {
        for (PageRef page : site.pages()) {
            List<PageRef> links = site.links(page);
            assertEquals(20, links.size(), "links of " + page);
            assertEquals(20, new HashSet<>(links).size(), "distinct links of " + page);
            assertEquals(new PageRef(page.domain(), (page.page() + 1) % 50), links.getFirst());
            assertFalse(links.contains(page));
            assertTrue(links.stream().allMatch(site::exists));
        }
    }

    @Test
    void aShareOfLinksCrossDomains() {
        long cross = site.pages().stream().flatMap(p -> site.links(p).stream().filter(l -> l.domain() != p.domain()))
                .count();
        double share = cross / (double) (site.pages().size() * 20);
        assertTrue(share > 0.2 && share < 0.4, "cross-domain share " + share);
    }

    @Test
    void pageHasItsSizeTitleAndLinks() {
        PageRef page = new PageRef(2, 7);
        String html = new String(site.render(page, d -> "http://127.0.0." + (d + 2) + ":8080"), StandardCharsets.UTF_8);
        assertTrue(Math.abs(html.length() - 15_000) < 100, "length " + html.length());
        assertTrue(html.contains("<title>Domain 2 page 7</title>"));
        for (PageRef target : site.links(page)) {
            String href = target.domain() == 2 ? target.path() : "http://127.0.0." + (target.domain() + 2) + ":8080" + target.path();
            assertTrue(html.contains("<a href=\"" + href + "\">" + site.anchorText(2, target) + "</a>"), href);
        }
    }

    @Test
    void reachableFollowsLinksToTheDepth() {
        PageRef start = new PageRef(0, 0);
        assertEquals(Set.of(start), site.reachable(start, 0, p -> true));
        Set<PageRef> depthOne = new HashSet<>(site.links(start));
        depthOne.add(start);
        assertEquals(depthOne, site.reachable(start, 1, p -> true));
        Set<PageRef> sameDomain = site.reachable(start, 60, p -> p.domain() == 0);
        assertEquals(50, sameDomain.size(), "the chain of first links reaches every page of the domain");
        assertTrue(site.reachable(start, 3, p -> true).size() > depthOne.size());
    }
}
