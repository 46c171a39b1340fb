package org.scrapycluster.crawler.robots;

import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;

/**
 * The Allow and Disallow rules crawler-commons parsed from a robots.txt for one robot, asked in time that does not grow
 * with their number: the pieces between the patterns' wildcards are found in a path in one pass ({@link PieceIndex}),
 * and each pattern is then matched from where its pieces occur. crawler-commons matches each pattern against the path
 * in turn, each piece tried at every place: 500 KiB of patterns such as {@code /*aaa…ab} took 1.3 to 3 seconds a URL
 * (docs/benchmarks.md, "robots.txt rules against hostile patterns").
 *
 * <p>The verdict is crawler-commons' (RFC 9309): the path with its query, percent-encoded as crawler-commons encodes
 * it, is allowed unless its longest matching rule disallows it (Allow wins a tie, and {@code /robots.txt} is always
 * allowed); {@code *} matches any run of characters, a final {@code $} the path's end. Three differences, where this reads
 * robots.txt as RFC 9309 and Google do (docs/differences.md, "Crawler"): crawler-commons takes the first place a
 * pattern's last piece occurs and then asks whether the path ends there, so {@code /*.php$} does not match
 * {@code /a.php.php}, which it does here; and an Allow rule for a directory's index page ({@code …/index.htm…} after
 * the last slash) allows the directory itself, as Google's parser has it, where crawler-commons reads any rule ending in
 * {@code index.htm} or {@code index.html} so, Disallow rules too: {@code Disallow: /index.html} forbade {@code /}; and a
 * {@code $} before a pattern's end is the character, as Google's parser has it, where crawler-commons never matched it
 * (it compared it with the path's {@code %24}).
 */
public final class PathRules extends BaseRobotRules {

    /** What a path's percent-encoding keeps encoded beside what must be: the two characters patterns give a meaning. */
    private static final boolean[] PATTERN_CHARACTERS = new boolean[128];

    static {
        PATTERN_CHARACTERS['*'] = true;
        PATTERN_CHARACTERS['$'] = true;
    }

    private static final String ROBOTS_TXT = "/robots.txt";
    /** About how many bytes a rule takes beside its text: the objects around it. */
    private static final int PER_RULE = 64;

    /** Longest first, so that the first rule shorter than a match found ends the look. */
    private final List<Rule> rules;
    private final PieceIndex pieces;
    private final long bytes;

    private PathRules(List<Rule> rules, PieceIndex pieces, long bytes) {
        this.rules = rules;
        this.pieces = pieces;
        this.bytes = bytes;
    }

    /**
     * {@code parsed} asked in time that does not grow with its rules, when it has rules to ask (otherwise it is
     * returned as it is): its crawl delay, sitemaps and deferral carried over.
     */
    public static BaseRobotRules of(BaseRobotRules parsed) {
        if (!(parsed instanceof SimpleRobotRules simple) || simple.isAllowAll() || simple.isAllowNone()) {
            return parsed;
        }
        Map<String, Integer> pieceIds = new LinkedHashMap<>();
        List<Rule> rules = new ArrayList<>();
        long bytes = 0;
        for (SimpleRobotRules.RobotRule rule : simple.getRobotRules()) {
            String pattern = rule.getPrefix();
            rules.add(Rule.of(pattern, rule.isAllow(), pieceIds));
            int lastSlash = pattern.lastIndexOf('/');
            if (rule.isAllow() && lastSlash >= 0 && pattern.startsWith("/index.htm", lastSlash)) {
                // as Google's parser: allowing a directory's index page allows the directory itself
                rules.add(Rule.of(pattern.substring(0, lastSlash + 1) + "$", true, pieceIds));
            }
            bytes += pattern.length() * 2L + PER_RULE;
        }
        rules.sort(Comparator.comparingInt(Rule::length).reversed());
        PieceIndex index = new PieceIndex(List.copyOf(pieceIds.keySet()));
        PathRules compiled = new PathRules(List.copyOf(rules), index, bytes + index.bytes());
        compiled.setCrawlDelay(parsed.getCrawlDelay());
        compiled.setDeferVisits(parsed.isDeferVisits());
        parsed.getSitemaps().forEach(compiled::addSitemap);
        return compiled;
    }

    /** About how many bytes the rules hold, for the cache that keeps them. */
    long bytes() {
        return bytes;
    }

    /** Reads {@code url} as crawler-commons does, with {@link URL}'s lenient parser; one it cannot read is asked as {@code /}. */
    @Override
    @SuppressWarnings("deprecation")
    public boolean isAllowed(String url) {
        try {
            return isAllowed(new URL(url));
        } catch (MalformedURLException e) {
            return allows("/");
        }
    }

    @Override
    public boolean isAllowed(URL url) {
        return allows(pathOf(url));
    }

    /** Compared by identity: crawler-commons compares rules by their crawl delay and sitemaps alone. */
    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public boolean isAllowAll() {
        return false;
    }

    @Override
    public boolean isAllowNone() {
        return false;
    }

    /** Whether {@code path}, with its query and encoded as {@link #pathOf} encodes it, may be fetched. */
    private boolean allows(String path) {
        if (path.equals(ROBOTS_TXT)) {
            return true;
        }
        Look look = new Look(path);
        int longest = -1;
        boolean allowed = true;
        for (Rule rule : rules) {
            if (rule.length() < longest) {
                break;
            }
            if (rule.matches(look)) {
                allowed = rule.length() > longest ? rule.allow() : allowed || rule.allow();
                longest = rule.length();
            }
        }
        return allowed;
    }

    /** The path and query of {@code url} as crawler-commons matches them: its characters encoded alike in both. */
    private static String pathOf(URL url) {
        String path = url.getPath();
        if (path == null || path.isEmpty()) {
            path = "/";
        }
        if (url.getQuery() != null) {
            path += "?" + url.getQuery();
        }
        return SimpleRobotRules.escapePath(path, PATTERN_CHARACTERS);
    }

    /** One path being asked about: where the pieces occur in it, found when a rule first needs them. */
    private final class Look {

        private final String path;
        private PieceIndex.Occurrences occurrences;

        Look(String path) {
            this.path = path;
        }

        PieceIndex.Occurrences occurrences() {
            if (occurrences == null) {
                occurrences = pieces.find(path);
            }
            return occurrences;
        }

        int length(int piece) {
            return pieces.length(piece);
        }
    }

    /**
     * One pattern: {@code head} from the path's start, then each of {@code pieces} at its first place after the one
     * before, then, when {@code anchored} and the pattern has a wildcard, {@code tail} at the path's end.
     *
     * @param length the pattern's length, which decides between rules that match
     */
    private record Rule(int length, boolean allow, String head, int[] pieces, boolean wildcard, boolean anchored, String tail) {

        static Rule of(String pattern, boolean allow, Map<String, Integer> pieceIds) {
            boolean anchored = pattern.endsWith("$");
            // a $ before the end is the character, which a path holds encoded
            String body = (anchored ? pattern.substring(0, pattern.length() - 1) : pattern).replace("$", "%24");
            String[] parts = body.split("\\*", -1);
            int last = parts.length - 1;
            // anchored, the last piece is looked for at the end instead of at its first place
            int found = anchored ? last - 1 : last;
            List<Integer> ids = new ArrayList<>();
            for (int i = 1; i <= found; i++) {
                if (!parts[i].isEmpty()) {
                    ids.add(pieceIds.computeIfAbsent(parts[i], piece -> pieceIds.size()));
                }
            }
            return new Rule(pattern.length(), allow, parts[0], ids.stream().mapToInt(Integer::intValue).toArray(),
                    last > 0, anchored, anchored ? parts[last] : "");
        }

        boolean matches(Look look) {
            String path = look.path;
            if (!path.startsWith(head)) {
                return false;
            }
            if (!wildcard) {
                return !anchored || path.length() == head.length();
            }
            int from = head.length();
            for (int id : pieces) {
                int at = look.occurrences().firstFrom(id, from);
                if (at < 0) {
                    return false;
                }
                from = at + look.length(id);
            }
            return !anchored || path.endsWith(tail) && path.length() - tail.length() >= from;
        }
    }
}
