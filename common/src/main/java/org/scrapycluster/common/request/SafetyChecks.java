package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.google.re2j.PatternSyntaxException;
import org.scrapycluster.common.cache.ProcessCaches;
import org.scrapycluster.common.domain.UrlHost;
import org.scrapycluster.common.http.HeaderValue;
import org.scrapycluster.common.json.UnicodeText;
import org.scrapycluster.common.net.Port;
import org.scrapycluster.common.settings.Settings;

/**
 * Checks a request must pass on top of its schema, which the original does not make. Each can be
 * turned off to accept exactly what the original accepts; {@link #ALL} is the default.
 *
 * <ul>
 *   <li>{@code idsWithoutColons}: {@code appid}, {@code crawlid}, {@code spiderid}, {@code uuid}
 *       and a zookeeper request's {@code domain} must not contain {@code :}, which separates the
 *       parts of Redis keys (a colon in a key part breaks the Redis monitor's key parsing); those that
 *       are key parts (all but the {@code uuid}) must not be empty either, which breaks it too; an {@code appid} must
 *       not contain {@code ||} nor end with {@code |}, so that a blacklist entry {@code <appid>||<crawlid>} names one
 *       crawl; and a {@code spiderid} must be at most {@value #MAX_SPIDERID_LENGTH} characters, since it names every key
 *       of its crawls and a field of the stats answers, which a huge one makes too large for Kafka.</li>
 *   <li>{@code httpUrls}: the crawl {@code url} must be {@code http} or {@code https} with a valid
 *       host and port; a URL without a scheme still means {@code http://} ({@code www.stuff.com}
 *       is valid), while {@code javascript:}, {@code file:}, {@code ftp:} and the like are refused.</li>
 *   <li>{@code linearRegexes}: every {@code allow_regex} and {@code deny_regex} must be a regular
 *       expression RE2/J accepts, so it runs in linear time (no back-references, no look-arounds), and
 *       whose nesting and size are within {@link LinearRegex}'s bounds, so compiling it is cheap; and the request
 *       may carry at most {@link LinearRegex#MAX_PER_REQUEST} of them, of at most
 *       {@link LinearRegex#MAX_LENGTH_PER_REQUEST} characters together, whose programs come to at most
 *       {@link LinearRegex#MAX_PROGRAM_SIZE_PER_REQUEST} instructions together, all read before any is compiled,
 *       so that compiling a request's regexes cannot hold a service for seconds (docs/api.md, "Rules every request follows").</li>
 * </ul>
 *
 * <p>Three rules hold whatever is turned off: a crawl request's (one with a {@code url}) {@code spiderid}
 * must be a non-empty name without {@code :}, since it is the first part of the queue key
 * {@code <spiderid>:<domain>:queue}, which every process splits at its first {@code :}; the ids
 * (and a {@code domain}) and the {@code url} must be Unicode text ({@link UnicodeText#whyNot}): half of a
 * surrogate pair would reach Redis as {@code ?}, in the keys of another id, the {@code uuid} of an answer as
 * another uuid, and a URL as another URL (a path's {@code ?} starts a query) than the one fingerprinted; and the
 * {@code cookie} and {@code useragent}, which the crawler sends as headers, must be text a header can carry
 * ({@link HeaderValue#whyNot}): the crawler refuses to send a line break in a header, so such a request, accepted, would
 * never be fetched, and no one told.
 *
 * <p>The checks look at top-level fields by these names whatever the schema, so a plugin's schema
 * with the same fields gets the same protection.
 *
 * @param idsWithoutColons refuse ids (and a {@code domain}) containing {@code :}, empty key parts, an {@code appid} that
 *                         could name another app's blacklisted crawl, and a {@code spiderid} that is too long
 * @param httpUrls refuse crawl URLs that are not http(s) with a host
 * @param linearRegexes refuse regexes RE2/J cannot run
 */
public record SafetyChecks(boolean idsWithoutColons, boolean httpUrls, boolean linearRegexes) {

    /** Every check on: the default. */
    public static final SafetyChecks ALL = new SafetyChecks(true, true, true);
    /** No check: accept what the original accepts. */
    public static final SafetyChecks NONE = new SafetyChecks(false, false, false);

    private static final List<String> IDS = List.of("appid", "crawlid", "spiderid", "uuid", "domain");
    /** The ids that become parts of Redis keys (the {@code uuid} is a key's value). */
    private static final Set<String> KEY_PARTS = Set.of("appid", "crawlid", "spiderid", "domain");
    private static final List<String> REGEX_LISTS = List.of("allow_regex", "deny_regex");
    /** The fields the crawler sends as headers: {@code Cookie} and {@code User-Agent}. */
    private static final List<String> HEADER_FIELDS = List.of("cookie", "useragent");
    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");
    private static final Pattern PORT_THEN_PATH = Pattern.compile("^[0-9]+(?:[/?#].*)?$", Pattern.DOTALL);
    private static final int MAX_QUOTED_LENGTH = 60;
    /** The longest {@code spiderid}, whose schema sets none (the other ids' schemas allow at most 40 characters). */
    private static final int MAX_SPIDERID_LENGTH = 100;
    /**
     * Regexes RE2/J compiled: the verdict never changes, and the seeds of one crawl (and the links of one
     * page) repeat the same few, so most checks cost a lookup instead of a compile.
     */
    private static final Cache<String, Boolean> LINEAR_REGEXES = ProcessCaches.named("linear-regex", 10_000);

    /** The checks {@code REQUEST_CHECK_IDS}, {@code REQUEST_CHECK_URLS} and {@code REQUEST_CHECK_REGEXES} turn on. */
    public static SafetyChecks from(Settings settings) {
        return new SafetyChecks(settings.getBoolean("REQUEST_CHECK_IDS"), settings.getBoolean("REQUEST_CHECK_URLS"),
                settings.getBoolean("REQUEST_CHECK_REGEXES"));
    }

    /**
     * The violations of {@code request}, in field order; empty when it passes.
     *
     * @param refused the fields its schema refused already: an empty id the schema refused for its length is not
     *                refused again
     */
    List<Violation> check(JsonNode request, Set<String> refused) {
        List<Violation> violations = new ArrayList<>();
        if (!request.isObject()) {
            return violations;
        }
        JsonNode url = request.get("url");
        boolean crawl = url != null;
        for (String id : IDS) {
            JsonNode value = request.get(id);
            if (value == null || !value.isTextual()) {
                continue;
            }
            String text = value.asText();
            Optional<String> notUnicode = UnicodeText.whyNot(text); // checked whatever is turned off
            if (notUnicode.isPresent()) {
                violations.add(new Violation(id, "is not Unicode text: " + notUnicode.get()));
                continue;
            }
            boolean queueKeyHead = crawl && id.equals("spiderid"); // checked whatever is turned off
            if (!(idsWithoutColons || queueKeyHead)) {
                continue;
            }
            if (text.indexOf(':') >= 0) {
                violations.add(new Violation(id, "must not contain ':', which separates the parts of Redis keys, was " + quoted(text)));
            } else if (text.isEmpty() && queueKeyHead) {
                violations.add(new Violation(id, "must not be empty: it is the first part of the queue key <spiderid>:<domain>:queue"));
            } else if (text.isEmpty() && KEY_PARTS.contains(id) && !refused.contains(id)) {
                violations.add(new Violation(id, "must not be empty: it is a part of Redis keys, which an empty part breaks"));
            } else if (idsWithoutColons && id.equals("appid") && (text.contains("||") || text.endsWith("|"))) {
                violations.add(new Violation(id, "must not contain '||' nor end with '|': a blacklist entry is <appid>||<crawlid>, "
                        + "which would name another app's crawl, was " + quoted(text)));
            } else if (idsWithoutColons && id.equals("spiderid")) {
                int length = text.codePointCount(0, text.length());
                if (length > MAX_SPIDERID_LENGTH) {
                    violations.add(new Violation(id, "must be at most " + MAX_SPIDERID_LENGTH + " characters: it is a part of every key of "
                            + "its crawls and a field name of the stats answers, was " + length));
                }
            }
        }
        Optional<String> urlNotUnicode = url != null && url.isTextual() ? UnicodeText.whyNot(url.asText()) : Optional.empty();
        urlNotUnicode.ifPresent(why -> violations.add(new Violation("url", "is not Unicode text: " + why))); // whatever is turned off
        if (httpUrls && url != null && url.isTextual() && urlNotUnicode.isEmpty()) {
            checkUrl(url.asText(), violations);
        }
        checkHeaderFields(request, violations); // whatever is turned off
        if (linearRegexes) {
            checkRegexes(request, violations);
        }
        return violations;
    }

    private static void checkUrl(String text, List<Violation> violations) {
        String url = text.strip();
        Matcher scheme = SCHEME.matcher(url);
        String rest = "//" + url;
        if (scheme.find() && !PORT_THEN_PATH.matcher(url.substring(scheme.end())).matches()) {
            String name = scheme.group(1).toLowerCase(Locale.ROOT);
            if (!name.equals("http") && !name.equals("https")) {
                violations.add(new Violation("url", "must be an http or https URL, not " + name + ":"));
                return;
            }
            rest = url.substring(scheme.end());
            if (!rest.startsWith("//")) {
                violations.add(noHost(text));
                return;
            }
        }
        if (UrlHost.hasWhiteSpaceInHost(rest)) {
            violations.add(noHost(text));
            return;
        }
        try {
            UrlHost host = UrlHost.parse(rest);
            if (!host.port().isEmpty() && Port.parse(host.port()).isEmpty()) {
                violations.add(new Violation("url", "has an invalid port '" + host.port() + "'"));
            }
        } catch (IllegalArgumentException e) {
            violations.add(noHost(text));
        }
    }

    private static void checkHeaderFields(JsonNode request, List<Violation> violations) {
        for (String field : HEADER_FIELDS) {
            JsonNode value = request.get(field);
            if (value != null && value.isTextual()) {
                HeaderValue.whyNot(value.asText()).ifPresent(why -> violations.add(new Violation(field,
                        "has a character an HTTP header cannot carry, so the page could never be fetched: " + why)));
            }
        }
    }

    private static Violation noHost(String url) {
        return new Violation("url", "must be an http or https URL with a valid host, was " + quoted(url));
    }

    /**
     * The regexes of {@code allow_regex} and {@code deny_regex}: first their number and the size of their programs,
     * read from their text, and only when the request is within the budget, each compiled (or found compiled).
     */
    private static void checkRegexes(JsonNode request, List<Violation> violations) {
        List<Regex> regexes = new ArrayList<>();
        for (String field : REGEX_LISTS) {
            JsonNode list = request.get(field);
            if (list == null || !list.isArray()) {
                continue;
            }
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i).isTextual()) {
                    regexes.add(new Regex(field + "[" + i + "]", list.get(i).asText()));
                }
            }
        }
        if (regexes.size() > LinearRegex.MAX_PER_REQUEST) {
            violations.add(new Violation(REGEX_LISTS.getFirst(), "a request may carry at most " + LinearRegex.MAX_PER_REQUEST
                    + " regular expressions in allow_regex and deny_regex together, was " + regexes.size()));
            return;
        }
        long length = regexes.stream().mapToLong(regex -> regex.text().length()).sum();
        if (length > LinearRegex.MAX_LENGTH_PER_REQUEST) {
            violations.add(new Violation(REGEX_LISTS.getFirst(), "the regular expressions of allow_regex and deny_regex may have at most "
                    + LinearRegex.MAX_LENGTH_PER_REQUEST + " characters together, had " + length));
            return;
        }
        List<Regex> unknown = new ArrayList<>();
        long programs = 0;
        for (Regex regex : regexes) {
            if (LINEAR_REGEXES.getIfPresent(regex.text()) != null) {
                programs += LinearRegex.programSize(regex.text()); // compiled before: within the limits of one
                continue;
            }
            try {
                programs += LinearRegex.programSize(regex.text());
                unknown.add(regex);
            } catch (PatternSyntaxException e) {
                violations.add(notLinear(regex, e));
            }
        }
        if (programs > LinearRegex.MAX_PROGRAM_SIZE_PER_REQUEST) {
            violations.add(new Violation(REGEX_LISTS.getFirst(), "the regular expressions of allow_regex and deny_regex expand to more than "
                    + LinearRegex.MAX_PROGRAM_SIZE_PER_REQUEST + " instructions together, were " + programs));
            return;
        }
        for (Regex regex : unknown) {
            try {
                LinearRegex.compile(regex.text());
                LINEAR_REGEXES.put(regex.text(), Boolean.TRUE);
            } catch (PatternSyntaxException e) {
                violations.add(notLinear(regex, e));
            }
        }
    }

    private static Violation notLinear(Regex regex, PatternSyntaxException e) {
        return new Violation(regex.path(), "must be a regular expression that runs in linear time (RE2 syntax, no back-references or look-arounds): "
                + e.getDescription() + " in " + quoted(regex.text()));
    }

    /** One regex of a request, and where it stands ({@code allow_regex[2]}). */
    private record Regex(String path, String text) {
    }

    static String quoted(String text) {
        String shown = text.length() > MAX_QUOTED_LENGTH ? text.substring(0, MAX_QUOTED_LENGTH) + "…" : text;
        return "\"" + shown + "\"";
    }
}
