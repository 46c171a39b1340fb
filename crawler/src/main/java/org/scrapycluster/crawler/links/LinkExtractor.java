package org.scrapycluster.crawler.links;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.stream.Stream;

import org.scrapycluster.common.python.PythonRegex;
import org.scrapycluster.common.request.LinearRegex;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlCanonicalizer;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.common.url.UrlResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * Finds the links of an HTML page the way Scrapy Cluster's link spider does (Scrapy's {@code LinkExtractor}
 * with {@code canonicalize=True}, docs/compatibility.md §4.8):
 * <ol>
 *   <li>the {@code href} of every {@code a} and {@code area} element, in document order, trimmed, resolved
 *       against the page's {@code <base href>} (looked for in its first 4096 characters) and the page URL;
 *       hrefs that cannot be resolved are skipped;</li>
 *   <li>duplicates dropped, the first occurrence kept (compared as resolved);</li>
 *   <li>kept only when the URL starts with {@code http://} or {@code https://}, in lower case as Scrapy checks it
 *       (an {@code HTTPS://host} link on an {@code http} page is dropped; on an {@code https} page it resolves to
 *       {@code https://host} and is kept), so that the links listed are the links followed: a {@code file:} link
 *       would have the crawler read its own disk, and {@code ftp:}, {@code mailto:} or {@code javascript:} ones are
 *       not fetched; when at least one {@code allow} regex finds a
 *       match (if any is given); when no {@code deny} regex finds one; when the URL's network location, in lower
 *       case, is one of {@code allowDomains} (lower case, as given) or ends with a dot and one of them (if any is
 *       given): Scrapy's {@code url_is_from_any_domain}, which compares {@code user@host:port} as written, so
 *       {@code example.com} allows neither {@code example.com:8080} nor {@code user@example.com}, and
 *       {@code example.com:8080} is how a crawl allows that port; and when the path's extension is
 *       not in {@code denyExtensions} (Scrapy's default list when none is given, none when empty);</li>
 *   <li>canonicalised ({@link UrlCanonicalizer}) and de-duplicated again.</li>
 * </ol>
 * Filters see the resolved URL before canonicalisation, as in Scrapy. Links marked {@code rel=nofollow} are
 * kept. The anchor text is the element's text as it stands, whitespace included, as Scrapy reports it.
 * Regexes are RE2 (linear time whatever the input), so a user's pattern cannot stall the crawler; Python
 * features RE2 lacks (look-around, back-references) are refused when the extractor is built.
 *
 * <p>Immutable and thread-safe.
 */
public final class LinkExtractor {

    /** Scrapy's {@code IGNORED_EXTENSIONS}: what is skipped when a crawl gives no {@code deny_extensions}. */
    public static final List<String> DEFAULT_DENY_EXTENSIONS = List.of(
            "mng", "pct", "bmp", "gif", "jpg", "jpeg", "png", "pst", "psp", "tif", "tiff", "ai", "drw", "dxf", "eps",
            "ps", "svg",
            "mp3", "wma", "ogg", "wav", "ra", "aac", "mid", "au", "aiff",
            "3gp", "asf", "asx", "avi", "mov", "mp4", "mpg", "qt", "rm", "swf", "wmv", "m4a", "m4v",
            "xls", "xlsx", "ppt", "pptx", "pps", "doc", "docx", "odt", "ods", "odg", "odp",
            "css", "pdf", "exe", "bin", "rss", "zip", "rar");

    private static final Logger LOG = LoggerFactory.getLogger(LinkExtractor.class);
    private static final int BASE_SCAN_CHARS = 4096;
    /** w3lib's {@code <base\\s[^>]*href\\s*=\\s*["']\\s*([^"'\\s]+)\\s*["']}, with Python's {@code \\s}. */
    private static final java.util.regex.Pattern BASE_HREF = java.util.regex.Pattern.compile(baseHref(),
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** {@code allowDomains} in lower case, and each with a dot before it: what a network location may end with. */
    private final List<String> allowDomains;
    private final List<String> allowSubdomains;
    private final List<Pattern> allow;
    private final List<Pattern> deny;
    private final Set<String> denyExtensions;
    private final long regexInstructions;

    private LinkExtractor(Builder builder) {
        this.allowDomains = builder.allowDomains.stream().map(d -> d.toLowerCase(Locale.ROOT)).distinct().toList();
        this.allowSubdomains = allowDomains.stream().map(d -> "." + d).toList();
        this.allow = compile("allow", builder.allow);
        this.deny = compile("deny", builder.deny);
        this.regexInstructions = Stream.concat(builder.allow.stream(), builder.deny.stream()).mapToLong(LinearRegex::programSize).sum();
        Set<String> extensions = new HashSet<>();
        for (String extension : builder.denyExtensions == null ? DEFAULT_DENY_EXTENSIONS : builder.denyExtensions) {
            // as given: Scrapy 1.5 lower-cases a URL's extension but not the list, so "PDF" denies nothing
            extensions.add("." + extension);
        }
        this.denyExtensions = Set.copyOf(extensions);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No domain or regex restriction, Scrapy's default extensions denied, URLs canonicalised. */
    public static LinkExtractor defaults() {
        return builder().build();
    }

    /**
     * The links of an HTML page, in document order.
     *
     * @param html        the page, decoded
     * @param responseUrl the URL the page was fetched from (after any redirect)
     * @throws InvalidUrlException when {@code responseUrl} cannot be split
     */
    public List<Link> extract(String html, String responseUrl) {
        return extract(html, responseUrl, ResponseKind.HTML, link -> allowsByAllowRegex(link.url()) && allowsByDenyRegex(link.url())
                && allowsDomain(link.url()) && allowsExtension(link.url()));
    }

    /**
     * The links of a page of {@code kind} (HTML or XML), in document order, keeping those {@code filter} allows instead
     * of applying this extractor's own rules: it sees each http or https link as resolved, before canonicalisation, once
     * per canonical URL.
     *
     * @throws InvalidUrlException when {@code responseUrl} cannot be split
     */
    public List<Link> extract(String html, String responseUrl, ResponseKind kind, Predicate<Link> filter) {
        String pageUrl = UrlEscaper.escape(responseUrl);
        String base = baseUrl(html, pageUrl);
        UrlResolver.Base page = UrlResolver.against(pageUrl);
        UrlResolver.Base bases = base.equals(pageUrl) ? page : UrlResolver.against(base);
        // sized for a page of a few dozen links, so that they are not rehashed as they come
        Set<String> seen = HashSet.newHashSet(64);
        Set<String> kept = HashSet.newHashSet(64);
        List<Link> links = new ArrayList<>();
        List<AnchorScanner.Anchor> anchors = AnchorScanner.scan(html, kind == ResponseKind.XML);
        if (anchors.size() == AnchorScanner.MOST_ANCHORS) {
            LOG.atInfo().addKeyValue("url", responseUrl).addKeyValue("read", anchors.size())
                    .log("A page holds more links than are read of one; the rest are not followed");
        }
        for (AnchorScanner.Anchor anchor : anchors) {
            Link link = consider(anchor, bases, page, seen, kept, filter);
            if (link != null) {
                links.add(link);
            }
        }
        return links;
    }

    private Link consider(AnchorScanner.Anchor anchor, UrlResolver.Base base, UrlResolver.Base page, Set<String> seen,
            Set<String> kept, Predicate<Link> filter) {
        String url;
        String withFragment;
        try {
            // the original's parser strips an href as Python's str.strip() does: a no-break space at an end goes too
            url = page.resolve(base.resolve(PythonStrip.whitespace(anchor.href())));
            withFragment = UrlCanonicalizer.canonicalize(url, true);
        } catch (InvalidUrlException bogus) {
            return null;
        }
        // before the filters, the original's parser drops a repeated link by its canonical form, fragment kept
        if (!seen.add(withFragment) || !isWeb(url)) {
            return null;
        }
        String canonical = UrlCanonicalizer.withoutFragment(withFragment);
        String text = anchor.text();
        if (!filter.test(new Link(url, text))) {
            return null;
        }
        if (!kept.add(canonical)) {
            return null;
        }
        return new Link(canonical, text);
    }

    /** Scrapy's {@code url.split('://', 1)[0] in {'http', 'https'}}: case counts. */
    private static boolean isWeb(String url) {
        return url.startsWith("http://") || url.startsWith("https://");
    }

    /** Whether it has {@code allow} or {@code deny} regexes, whose matching may take its time. */
    public boolean hasRegexes() {
        return !allow.isEmpty() || !deny.isEmpty();
    }

    /**
     * An upper bound of the size of its regexes' programs together, in instructions: matching a character of a link
     * against them all takes at most about that many steps.
     */
    public long regexInstructions() {
        return regexInstructions;
    }

    /** Whether at least one {@code allow} regex finds a match in {@code url}, or none is given. */
    public boolean allowsByAllowRegex(String url) {
        return allow.isEmpty() || allow.stream().anyMatch(pattern -> pattern.matcher(url).find());
    }

    /** Whether no {@code deny} regex finds a match in {@code url}. */
    public boolean allowsByDenyRegex(String url) {
        return deny.stream().noneMatch(pattern -> pattern.matcher(url).find());
    }

    /**
     * Whether the network location of {@code url} ({@code user@host:port} as written), in lower case, is one of
     * {@code allowDomains} or ends with a dot and one of them, or none is given.
     */
    public boolean allowsDomain(String url) {
        return allowDomains.isEmpty() || inAllowedDomain(netloc(url).toLowerCase(Locale.ROOT));
    }

    /** The network location of {@code url}, read from its text when it is a plain canonical URL. */
    private static String netloc(String url) {
        return UrlCanonicalizer.isPlainCanonical(url) ? UrlCanonicalizer.plainNetloc(url) : UrlParts.split(url).netloc();
    }

    /**
     * Whether the extension of the path of {@code url} is not one of {@code denyExtensions}. A plain canonical URL
     * (no parameters, query or fragment) ends with its path's last segment, which is all the extension needs.
     */
    public boolean allowsExtension(String url) {
        return denyExtensions.isEmpty() || !mayHaveExtension(url)
                || !denyExtensions.contains(extension(UrlCanonicalizer.isPlainCanonical(url) ? url : UrlParts.parse(url).path()));
    }

    /** False when {@code url}, up to its query or fragment, has no dot after its last slash: its path then has no extension. */
    private static boolean mayHaveExtension(String url) {
        int end = 0;
        while (end < url.length() && url.charAt(end) != '?' && url.charAt(end) != '#') {
            end++;
        }
        return url.lastIndexOf('.', end - 1) > url.lastIndexOf('/', end - 1);
    }

    private boolean inAllowedDomain(String netloc) {
        if (netloc.isEmpty()) {
            return false;
        }
        for (int i = 0; i < allowDomains.size(); i++) {
            if (netloc.equals(allowDomains.get(i)) || netloc.endsWith(allowSubdomains.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** Python's {@code posixpath.splitext(path)[1]}, lower case: leading dots of the file name do not count. */
    static String extension(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        if (dot > slash) {
            for (int i = slash + 1; i < dot; i++) {
                if (path.charAt(i) != '.') {
                    return path.substring(dot).toLowerCase(Locale.ROOT);
                }
            }
        }
        return "";
    }

    /** The page's {@code <base href>} resolved against its URL, or its URL, as w3lib's {@code get_base_url}. */
    private static String baseUrl(String html, String pageUrl) {
        int end = Math.min(html.length(), BASE_SCAN_CHARS);
        int tag = baseTag(html, end);
        if (tag < 0) {
            return pageUrl;
        }
        // No match can start before the first "<base", so the regex may start there.
        Matcher matcher = BASE_HREF.matcher(html).region(tag, end);
        if (!matcher.find()) {
            return pageUrl;
        }
        try {
            return UrlResolver.resolve(pageUrl, UrlEscaper.escape(matcher.group(1)));
        } catch (InvalidUrlException unusable) {
            return pageUrl;
        }
    }

    private static String baseHref() {
        String space = PythonRegex.SPACE;
        return "<base" + space + "[^>]*href" + space + "*=" + space + "*[\"']" + space + "*([^\"'" + PythonRegex.SPACE_CHARS
                + "]+)" + space + "*[\"']";
    }

    /** Where the first {@code <base} (any case) of {@code html[0, end)} starts, or -1: most pages have none. */
    private static int baseTag(String html, int end) {
        for (int at = html.indexOf('<'); at >= 0 && at < end; at = html.indexOf('<', at + 1)) {
            if (at + 5 <= end && html.regionMatches(true, at + 1, "base", 0, 4)) {
                return at;
            }
        }
        return -1;
    }

    private static List<Pattern> compile(String what, Collection<String> regexes) {
        List<Pattern> patterns = new ArrayList<>(regexes.size());
        for (String regex : regexes) {
            try {
                patterns.add(LinearRegex.compile(regex));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(what + " regex '" + regex + "' is not a valid RE2 expression: "
                        + e.getDescription(), e);
            }
        }
        return List.copyOf(patterns);
    }

    /**
     * Describes an extractor from a crawl request's fields: {@code allowed_domains}, {@code allow_regex},
     * {@code deny_regex} and {@code deny_extensions}; null means "not given" for each.
     */
    public static final class Builder {
        private Collection<String> allowDomains = List.of();
        private Collection<String> allow = List.of();
        private Collection<String> deny = List.of();
        private Collection<String> denyExtensions;

        private Builder() {
        }

        /**
         * Only links whose network location is one of these or ends with a dot and one of them, compared in lower
         * case and otherwise as written ({@code host:port} for a port); null or empty for any.
         */
        public Builder allowDomains(Collection<String> domains) {
            this.allowDomains = domains == null ? List.of() : new LinkedHashSet<>(domains);
            return this;
        }

        /** Only links in which at least one of these RE2 regexes finds a match; null or empty for any. */
        public Builder allow(Collection<String> regexes) {
            this.allow = regexes == null ? List.of() : List.copyOf(regexes);
            return this;
        }

        /** No link in which any of these RE2 regexes finds a match (this wins over {@link #allow}). */
        public Builder deny(Collection<String> regexes) {
            this.deny = regexes == null ? List.of() : List.copyOf(regexes);
            return this;
        }

        /**
         * No link whose path ends in one of these extensions (without the dot, any case); null for
         * {@link #DEFAULT_DENY_EXTENSIONS}, empty for none.
         */
        public Builder denyExtensions(Collection<String> extensions) {
            this.denyExtensions = extensions == null ? null : List.copyOf(extensions);
            return this;
        }

        /** @throws IllegalArgumentException when a regex is not valid RE2 */
        public LinkExtractor build() {
            return new LinkExtractor(this);
        }
    }
}
