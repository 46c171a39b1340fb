package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * A deterministic synthetic web: {@code domains} domains of {@code pagesPerDomain} pages each, every page
 * about {@code pageBytes} long with {@code linksPerPage} distinct links, a share of them to other domains.
 * The same seed gives the same pages and links, so a test or benchmark knows exactly which pages exist and
 * which a crawl of a given depth must reach.
 *
 * <p>Page {@code p} of a domain is served at {@code /p/<p>}. Its first link goes to page {@code p + 1} of
 * the same domain (wrapping), so every page of a domain is reachable from page 0; the others are drawn at
 * random. Same-domain links are written as relative paths ({@code /p/17}), cross-domain links as absolute
 * URLs, the way real pages mix both.
 */
public final class SyntheticSite {

    /** Where pages live: page {@code n} is at {@code /p/n}. */
    public static final String PAGE_PREFIX = "/p/";

    private static final String[] WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod "
            + "tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation "
            + "ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit "
            + "esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia "
            + "deserunt mollit anim id est laborum").split(" ");
    private static final int FILLER_BYTES = 1 << 16;

    private final long seed;
    private final int domains;
    private final int pagesPerDomain;
    private final int pageBytes;
    private final int linksPerPage;
    private final double crossDomainShare;
    private final String filler;

    private SyntheticSite(Builder builder) {
        this.seed = builder.seed;
        this.domains = builder.domains;
        this.pagesPerDomain = builder.pagesPerDomain;
        this.pageBytes = builder.pageBytes;
        this.linksPerPage = Math.min(builder.linksPerPage, domains * pagesPerDomain - 1);
        this.crossDomainShare = domains > 1 ? builder.crossDomainShare : 0;
        this.filler = filler(seed);
    }

    public static Builder builder() {
        return new Builder();
    }

    public long seed() {
        return seed;
    }

    public int domains() {
        return domains;
    }

    public int pagesPerDomain() {
        return pagesPerDomain;
    }

    public int pageBytes() {
        return pageBytes;
    }

    public int linksPerPage() {
        return linksPerPage;
    }

    /** Every page of the site, domain by domain. */
    public List<PageRef> pages() {
        List<PageRef> pages = new ArrayList<>(domains * pagesPerDomain);
        for (int d = 0; d < domains; d++) {
            for (int p = 0; p < pagesPerDomain; p++) {
                pages.add(new PageRef(d, p));
            }
        }
        return pages;
    }

    public boolean exists(PageRef page) {
        return page.domain() < domains && page.page() < pagesPerDomain;
    }

    /** The pages {@code page} links to, in the order its links appear. */
    public List<PageRef> links(PageRef page) {
        requireExists(page);
        SplittableRandom random = new SplittableRandom(mix(seed, page.domain(), page.page()));
        Set<PageRef> links = new LinkedHashSet<>();
        if (pagesPerDomain > 1) {
            links.add(new PageRef(page.domain(), (page.page() + 1) % pagesPerDomain));
        }
        int attempts = 0;
        while (links.size() < linksPerPage && attempts++ < linksPerPage * 20) {
            int domain = page.domain();
            if (random.nextDouble() < crossDomainShare) {
                domain = (page.domain() + 1 + random.nextInt(domains - 1)) % domains;
            }
            PageRef target = new PageRef(domain, random.nextInt(pagesPerDomain));
            if (!target.equals(page)) {
                links.add(target);
            }
        }
        return List.copyOf(links);
    }

    /** The title (and heading) of a page. */
    public String title(PageRef page) {
        return "Domain " + page.domain() + " page " + page.page();
    }

    /** The anchor text of a link from a page of {@code fromDomain} to {@code target}. */
    public String anchorText(int fromDomain, PageRef target) {
        return target.domain() == fromDomain ? "Page " + target.page() : title(target);
    }

    /**
     * The HTML of {@code page} in UTF-8 (it is ASCII).
     *
     * @param baseUrl the base URL ({@code http://127.0.0.7:8080}) of a domain, for cross-domain links
     */
    public byte[] render(PageRef page, IntFunction<String> baseUrl) {
        List<PageRef> links = links(page);
        StringBuilder html = new StringBuilder(pageBytes + 256);
        String title = title(page);
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title></head>\n<body>\n<h1>").append(title).append("</h1>\n<ul>\n");
        for (PageRef target : links) {
            html.append("<li><a href=\"");
            if (target.domain() != page.domain()) {
                html.append(baseUrl.apply(target.domain()));
            }
            html.append(target.path()).append("\">").append(anchorText(page.domain(), target)).append("</a></li>\n");
        }
        html.append("</ul>\n");
        String tail = "</body></html>\n";
        int room = pageBytes - html.length() - tail.length() - "<p></p>\n".length();
        if (room > 0) {
            int length = Math.min(room, FILLER_BYTES / 2);
            int start = (int) Math.floorMod(mix(seed, page.page(), page.domain()), (long) (FILLER_BYTES / 2));
            html.append("<p>").append(filler, start, start + length).append("</p>\n");
        }
        html.append(tail);
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The pages a crawl from {@code start} fetches when it follows links only from pages closer than
     * {@code maxDepth} hops (the link spider's {@code curdepth < maxdepth}) and only links {@code follow}
     * accepts. The start page is always included.
     */
    public Set<PageRef> reachable(PageRef start, int maxDepth, Predicate<PageRef> follow) {
        requireExists(start);
        Set<PageRef> seen = new LinkedHashSet<>();
        seen.add(start);
        Deque<PageRef> frontier = new ArrayDeque<>(List.of(start));
        for (int depth = 0; depth < maxDepth && !frontier.isEmpty(); depth++) {
            Deque<PageRef> next = new ArrayDeque<>();
            for (PageRef page : frontier) {
                for (PageRef target : links(page)) {
                    if (follow.test(target) && seen.add(target)) {
                        next.add(target);
                    }
                }
            }
            frontier = next;
        }
        return Collections.unmodifiableSet(seen);
    }

    private void requireExists(PageRef page) {
        if (!exists(page)) {
            throw new IllegalArgumentException("no such page in this site: " + page);
        }
    }

    private static long mix(long seed, int a, int b) {
        long z = seed + 0x9E3779B97F4A7C15L * (a + 1L) + 0xC2B2AE3D27D4EB4FL * (b + 1L);
        z = (z ^ z >>> 30) * 0xBF58476D1CE4E5B9L;
        z = (z ^ z >>> 27) * 0x94D049BB133111EBL;
        return z ^ z >>> 31;
    }

    private static String filler(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder(FILLER_BYTES + 16);
        while (text.length() < FILLER_BYTES) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(12) == 0 ? ".\n" : " ");
        }
        return text.substring(0, FILLER_BYTES);
    }

    /** Describes a site; every value has a default suitable for a quick test. */
    public static final class Builder {
        private long seed = 1;
        private int domains = 3;
        private int pagesPerDomain = 10;
        private int pageBytes = 2048;
        private int linksPerPage = 5;
        private double crossDomainShare = 0.25;

        private Builder() {
        }

        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        public Builder domains(int value) {
            this.domains = positive("domains", value);
            return this;
        }

        public Builder pagesPerDomain(int value) {
            this.pagesPerDomain = positive("pagesPerDomain", value);
            return this;
        }

        public Builder pageBytes(int value) {
            this.pageBytes = positive("pageBytes", value);
            return this;
        }

        public Builder linksPerPage(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("linksPerPage must not be negative: " + value);
            }
            this.linksPerPage = value;
            return this;
        }

        /** The probability that a link (other than the first) goes to another domain, from 0 to 1. */
        public Builder crossDomainShare(double value) {
            if (value < 0 || value > 1) {
                throw new IllegalArgumentException("crossDomainShare is a probability: " + value);
            }
            this.crossDomainShare = value;
            return this;
        }

        public SyntheticSite build() {
            return new SyntheticSite(this);
        }

        private static int positive(String name, int value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
            return value;
        }
    }
}
