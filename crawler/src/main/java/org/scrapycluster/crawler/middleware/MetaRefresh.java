package org.scrapycluster.crawler.middleware;

import java.nio.charset.Charset;
import java.util.Optional;

import org.jsoup.parser.Parser;
import org.scrapycluster.common.python.PythonRegex;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlResolver;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * A page's {@code <meta http-equiv="refresh" content="5; url=…">}, found as Scrapy 1.5 finds it (docs/compatibility.md
 * §4.1): in the first 4,096 characters of the page, once {@code script} and {@code noscript} elements are cut out,
 * character references decoded and then comments cut out; the first such tag whose {@code content} gives both a
 * delay and a URL counts, and the URL is made safe (its query escaped in the page's encoding) and resolved against the
 * page's URL. References are decoded as HTML5 decodes them in an attribute value, where the URL is: {@code &region=us}
 * stays as it is, where w3lib reads {@code &reg} and a browser does not (docs/differences.md "A meta refresh's URL").
 *
 * @param delay seconds the page asks to wait before the refresh
 * @param url   the absolute URL to go to
 */
public record MetaRefresh(double delay, String url) {

    /** How much of a page is looked at, as Scrapy's {@code get_meta_refresh} does. */
    static final int SCANNED_CHARS = 4096;

    private static final Pattern SCRIPTS = Pattern.compile(
            "(?is)<script\\b.*?</script>|<script\\s*/>|<noscript\\b.*?</noscript>|<noscript\\s*/>");
    private static final Pattern COMMENTS = Pattern.compile("(?s)<!--.*?(?:-->|$)");
    // the first quote's twin ends the URL; RE2 has no back-references, so each quote has its own branch
    // white space as Python's \s, which takes a no-break space (&nbsp; decoded) and every Unicode space
    private static final Pattern REFRESH = Pattern.compile(("(?is)<meta\\s[^>]*http-equiv[^>]*refresh[^>]*content\\s*=\\s*"
            + "(?:\"((?:\\d*\\.)?\\d+)\\s*;\\s*url=\\s*([^\"]*)\"|'((?:\\d*\\.)?\\d+)\\s*;\\s*url=\\s*([^']*)')")
            .replace("\\s", PythonRegex.SPACE));

    /**
     * The refresh {@code html} (a page's text from its start, decoded from {@code pageCharset}) asks for, with its link
     * resolved against {@code pageUrl}.
     */
    public static Optional<MetaRefresh> in(String html, String pageUrl, Charset pageCharset) {
        String scanned = html.length() > SCANNED_CHARS ? html.substring(0, SCANNED_CHARS) : html;
        if (!mentionsRefresh(scanned)) {
            return Optional.empty(); // nearly every page, without a regex over it
        }
        String text = COMMENTS.matcher(Parser.unescapeEntities(SCRIPTS.matcher(scanned).replaceAll(""), true)).replaceAll("");
        Matcher refresh = REFRESH.matcher(text);
        if (!refresh.find()) {
            return Optional.empty();
        }
        boolean doubleQuoted = refresh.group(1) != null;
        double delay = Double.parseDouble(refresh.group(doubleQuoted ? 1 : 3));
        String target = strip(refresh.group(doubleQuoted ? 2 : 4));
        try {
            return Optional.of(new MetaRefresh(delay, UrlResolver.resolve(pageUrl, UrlEscaper.escape(target, pageCharset))));
        } catch (InvalidUrlException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the text holds {@code refresh}, {@code Refresh} or {@code REFRESH}: searched for first, with the JDK's
     * vectorised search, as nearly no page has a refresh; one spelt in other mixed case is not found.
     */
    private static boolean mentionsRefresh(String text) {
        return text.contains("refresh") || text.contains("Refresh") || text.contains("REFRESH");
    }

    /** The URL without the spaces and quotes around it. */
    private static String strip(String url) {
        int start = 0;
        int end = url.length();
        while (start < end && " \"'".indexOf(url.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && " \"'".indexOf(url.charAt(end - 1)) >= 0) {
            end--;
        }
        return url.substring(start, end);
    }
}
