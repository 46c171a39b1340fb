package org.scrapycluster.crawler.spider;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntConsumer;

import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.common.cache.ProcessCaches;
import org.scrapycluster.common.extension.OwnClassLoader;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.links.LinkExtractor;
import org.scrapycluster.crawler.links.ResponseKind;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.benmanes.caffeine.cache.Cache;

/**
 * The links of a page that its crawl may follow. The crawl's own rules, from its request's
 * {@code allowed_domains}, {@code allow_regex}, {@code deny_regex} and {@code deny_extensions}
 * (docs/compatibility.md §4.8), are compiled once per distinct set and reused (compiling regexes per page would
 * cost more than extracting); a crawl whose regex is not RE2 gets no links, with an error in the log. Every link
 * must then pass every {@link LinkFilter} of {@code LINK_FILTERS}. The built-in ones ({@link CrawlLinkFilter}) apply
 * one rule of the crawl each, the regexes after the others, while the links are extracted: they see a link as the
 * page writes it (resolved, before canonicalisation), as Scrapy's extractor does. The others, users' filters, then see
 * each link that is left in its final, canonical form, in their order. A page's links spend about
 * {@code LINK_REGEX_PAGE_SECONDS} at most in the crawl's regexes: RE2 matches in time linear in a URL, but the factor is
 * the program's size, up to the 200,000 instructions a request may carry, so that a page of long links could hold a
 * worker for hours. The links not matched then, and a link whose match could take longer than is left, are not
 * followed, logged at WARN and counted. Thread-safe.
 */
public final class LinkRules {

    private static final Logger LOG = LoggerFactory.getLogger(LinkRules.class);
    /**
     * The compiled rules of the crawls seen, shared by every spider of the process: they are immutable. Each weighs an
     * entry per {@value #INSTRUCTIONS_PER_ENTRY} instructions of its regexes (at least one): a regex program's matcher
     * holds about 90 bytes an instruction once used, so that a thousand crawls whose regexes are at the limit a request
     * may carry (200,000 instructions) would hold 17 GB, where a thousand of a few short regexes hold little.
     */
    private static final Cache<List<List<String>>, LinkExtractor> EXTRACTORS = ProcessCaches.weighed("link-extractor", 1000,
            (rules, extractor) -> weight(extractor.regexInstructions()));
    static final int INSTRUCTIONS_PER_ENTRY = 1000;
    /**
     * About the most a character of a link costs per instruction of the regexes it is matched against, in nanoseconds:
     * {@code [^Q]{0,1000}Q1}, whose thousand instructions are all alive at once, over 2,000 characters took 24 ms on the
     * 2-core benchmark machine (docs/benchmarks.md); a regex of a few live instructions costs less.
     */
    static final long MATCH_NANOS_PER_INSTRUCTION_CHARACTER = 12;

    private final List<CrawlLinkFilter> crawlFilters;
    private final List<LinkFilter> userFilters;
    private final long regexPageNanos;
    private final IntConsumer linksCut;

    /**
     * Rules that apply {@code filters}, in order but the crawl's regexes after its other rules, a page's links spending
     * about {@code regexPageTime} at most in those regexes; {@code linksCut} counts the links not matched for it.
     */
    public LinkRules(List<LinkFilter> filters, Duration regexPageTime, IntConsumer linksCut) {
        // the regexes last: the rules are tests that must all pass, so their order changes which links pass in nothing, and
        // a link the crawl's other rules keep out spends none of the page's regex time
        this.crawlFilters = filters.stream().filter(CrawlLinkFilter.class::isInstance).map(CrawlLinkFilter.class::cast)
                .sorted(Comparator.comparing(CrawlLinkFilter::matchesRegexes)).toList();
        this.userFilters = filters.stream().filter(filter -> !(filter instanceof CrawlLinkFilter)).toList();
        this.regexPageNanos = regexPageTime.toNanos();
        this.linksCut = linksCut;
    }

    /** A request for {@code url} found on the page of {@code page}, with {@code meta} and the crawl's User-Agent. */
    public static CrawlRequest follow(CrawlRequest page, String url, Map<String, Object> meta) {
        CrawlRequest child = CrawlRequest.get(url, meta);
        return page.text("useragent").map(agent -> child.withHeader("User-Agent", agent)).orElse(child);
    }

    /** The links of {@code page} that every {@link LinkFilter} allows. */
    public List<PageLink> links(SpiderResponse page) {
        return extract(page.request(), page.text(), page.url(), page.kind()).stream().map(link -> new PageLink(link.url(), link.text()))
                .filter(link -> userFilters.stream().allMatch(filter -> OwnClassLoader.call(filter, () -> filter.allows(link, page))))
                .toList();
    }

    /**
     * The compiled rules of {@code request}'s crawl, or empty (with an error in the log) when a regex is not RE2.
     */
    static Optional<LinkExtractor> compiled(CrawlRequest request) {
        List<List<String>> rules = Arrays.asList(request.textList("allowed_domains"), request.textList("allow_regex"),
                request.textList("deny_regex"), request.textList("deny_extensions"));
        try {
            return Optional.of(EXTRACTORS.get(rules, LinkRules::extractorFor));
        } catch (IllegalArgumentException e) {
            LOG.atError().addKeyValue("crawlid", request.crawlid()).addKeyValue("error", e.getMessage())
                    .log("The crawl's link filters cannot be used; no links followed");
            return Optional.empty();
        }
    }

    /**
     * The links of a page of {@code kind} for {@code request} that the built-in filters allow, with newlines stripped from
     * their URLs.
     */
    List<Link> extract(CrawlRequest request, String html, String pageUrl, ResponseKind kind) {
        Optional<LinkExtractor> crawlRules = compiled(request);
        if (crawlRules.isEmpty()) {
            return List.of();
        }
        LinkExtractor rules = crawlRules.get();
        RegexTime regexTime = rules.hasRegexes() ? new RegexTime(regexPageNanos, rules.regexInstructions()) : null;
        List<Link> links = rules.extract(html, pageUrl, kind, link -> allowed(new PageLink(link.url(), link.text()), rules, regexTime));
        if (regexTime != null && regexTime.cut > 0) {
            linksCut.accept(regexTime.cut);
            LOG.atWarn().addKeyValue("url", pageUrl).addKeyValue("crawlid", request.crawlid()).addKeyValue("links_cut", regexTime.cut)
                    .log("Matching the page's links against the crawl's allow_regex and deny_regex took, or would have taken, more than"
                            + " LINK_REGEX_PAGE_SECONDS; the links not matched are not followed");
        }
        return links.stream().map(link -> new Link(link.url().replace("\n", "").replace("\r", ""), link.text())).toList();
    }

    /**
     * Whether every built-in filter allows {@code link}; the regex filters' time is taken from {@code regexTime} when the
     * crawl has regexes.
     */
    private boolean allowed(PageLink link, LinkExtractor crawlRules, RegexTime regexTime) {
        boolean timed = false;
        for (CrawlLinkFilter filter : crawlFilters) {
            boolean allows;
            if (regexTime != null && filter.matchesRegexes()) {
                if (!timed && !regexTime.mayMatch(link.url().length())) {
                    return false;
                }
                timed = true;
                long start = System.nanoTime();
                allows = filter.allows(link, crawlRules);
                regexTime.spend(System.nanoTime() - start);
            } else {
                allows = filter.allows(link, crawlRules);
            }
            if (!allows) {
                return false;
            }
        }
        return true;
    }

    /**
     * The time a page's links have spent in its crawl's regexes, and how many were not matched: none once it reaches
     * {@code LINK_REGEX_PAGE_SECONDS}, nor one whose match could take longer than is left (a link of a megabyte against
     * programs of 200,000 instructions could take most of an hour).
     */
    private static final class RegexTime {

        private final long budget;
        private final long instructions;
        private long spent;
        private int cut;

        RegexTime(long budget, long instructions) {
            this.budget = budget;
            this.instructions = instructions;
        }

        /** Whether a link of {@code length} characters may be matched; counts one that may not. */
        boolean mayMatch(int length) {
            long left = budget - spent;
            if (left > 0 && instructions * length * MATCH_NANOS_PER_INSTRUCTION_CHARACTER <= left) {
                return true;
            }
            cut++;
            return false;
        }

        void spend(long nanos) {
            spent += nanos;
        }
    }

    /** The entries compiled rules weigh: one, and one more for each 1,000 {@code instructions} of their regexes. */
    static int weight(long instructions) {
        return (int) Math.min(Integer.MAX_VALUE, 1 + instructions / INSTRUCTIONS_PER_ENTRY);
    }

    private static LinkExtractor extractorFor(List<List<String>> rules) {
        return LinkExtractor.builder().allowDomains(rules.get(0)).allow(rules.get(1)).deny(rules.get(2))
                .denyExtensions(rules.get(3)).build();
    }
}
