package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;

/**
 * robots.txt verdicts as {@link PathRules} gives them: hand-written cases, random rule sets against crawler-commons' own
 * matching and against patterns read as RFC 9309 writes them, and a file of hostile patterns.
 */
class PathRulesTest {

    private static final String HOST = "http://a.test";
    /** The characters crawler-commons encodes in a path beside those that must be: the two patterns give a meaning. */
    private static final boolean[] ENCODED_IN_PATHS = new boolean[128];

    static {
        ENCODED_IN_PATHS['*'] = true;
        ENCODED_IN_PATHS['$'] = true;
    }

    private static SimpleRobotRules parsed(String robotsTxt) {
        BaseRobotRules rules = new SimpleRobotRulesParser().parseContent(HOST + "/robots.txt",
                robotsTxt.getBytes(StandardCharsets.UTF_8), "text/plain", List.of("scrapy"));
        return assertInstanceOf(SimpleRobotRules.class, rules);
    }

    private static BaseRobotRules rules(String robotsTxt) {
        return PathRules.of(parsed(robotsTxt));
    }

    @Test
    void theLongestMatchingRuleDecidesAndAllowWinsATie() {
        BaseRobotRules rules = rules("""
                User-agent: *
                Disallow: /private
                Allow: /private/open
                Disallow: /same
                Allow: /same
                Disallow: /*.pdf
                Allow: /docs/*.pdf
                """);
        assertTrue(rules.isAllowed(HOST + "/"));
        assertFalse(rules.isAllowed(HOST + "/private"));
        assertFalse(rules.isAllowed(HOST + "/private/closed"));
        assertTrue(rules.isAllowed(HOST + "/private/open/x"));
        assertTrue(rules.isAllowed(HOST + "/same/x"), "Allow wins a rule of the same length");
        assertFalse(rules.isAllowed(HOST + "/files/a.pdf"));
        assertTrue(rules.isAllowed(HOST + "/docs/a.pdf"));
        assertFalse(rules.isAllowed(HOST + "/x?file=a.pdf"), "the query is part of what is matched");
    }

    @Test
    void aFinalDollarMatchesThePathsEndAndRobotsTxtIsAlwaysAllowed() {
        BaseRobotRules rules = rules("""
                User-agent: *
                Disallow: /
                Allow: /$
                Allow: /index.html
                """);
        assertTrue(rules.isAllowed(HOST + "/"));
        assertTrue(rules.isAllowed(HOST + "/index.html"));
        assertFalse(rules.isAllowed(HOST + "/other"));
        assertTrue(rules.isAllowed(HOST + "/robots.txt"));
        assertTrue(rules("User-agent: *\nDisallow: /\nAllow: /dir/index.html\n").isAllowed(HOST + "/dir/"),
                "allowing a directory's index.html allows the directory, as Google's parser has it");
    }

    @Test
    void aDollarBeforeThePatternsEndIsTheCharacter() {
        BaseRobotRules rules = rules("User-agent: *\nDisallow: /$web/\nDisallow: /a*$b$\nDisallow: /c%24d\n");
        assertFalse(rules.isAllowed(HOST + "/$web/index.html"), "as Google's parser reads it");
        assertFalse(rules.isAllowed(HOST + "/%24web/index.html"), "encoded alike");
        assertTrue(rules.isAllowed(HOST + "/web/"));
        assertFalse(rules.isAllowed(HOST + "/ax$b"));
        assertTrue(rules.isAllowed(HOST + "/ax$bc"), "the last one still anchors");
        assertFalse(rules.isAllowed(HOST + "/c$d"));
    }

    @Test
    void onlyAllowingAnIndexPageSpeaksForItsDirectory() {
        assertTrue(rules("User-agent: *\nDisallow: /index.html\n").isAllowed(HOST + "/"), "forbidding the index page leaves /");
        assertTrue(rules("User-agent: *\nDisallow: /*index.html\n").isAllowed(HOST + "/any"), "and no rule that forbids all");
        assertFalse(rules("User-agent: *\nDisallow: /\nAllow: /*index.html\n").isAllowed(HOST + "/any"),
                "an index page anywhere allows no other page");
        assertTrue(rules("User-agent: *\nDisallow: /\nAllow: /a*/index.htm\n").isAllowed(HOST + "/ab/"));
    }

    @Test
    void aPatternsLastPieceMayMatchAtThePathsEndAfterAnEarlierPlace() {
        String robotsTxt = "User-agent: *\nDisallow: /*.php$\n";
        assertFalse(rules(robotsTxt).isAllowed(HOST + "/a.php.php"));
        assertTrue(parsed(robotsTxt).isAllowed(HOST + "/a.php.php"), "crawler-commons looks only at the first place");
        assertTrue(rules(robotsTxt).isAllowed(HOST + "/a.php.html"));
    }

    @Test
    void pathsAreEncodedAsTheRulesAre() {
        BaseRobotRules rules = rules("User-agent: *\nDisallow: /café\nDisallow: /a%2Ab\n");
        assertFalse(rules.isAllowed(HOST + "/caf%C3%A9/menu"));
        assertFalse(rules.isAllowed(HOST + "/a*b"), "an asterisk in a path is the character, not a wildcard");
        assertTrue(rules.isAllowed(HOST + "/axb"));
    }

    @Test
    void rulesWithoutPatternsToAskAreLeftAsParsed() {
        SimpleRobotRules none = parsed("User-agent: *\nDisallow: /\n");
        assertInstanceOf(PathRules.class, PathRules.of(none));
        SimpleRobotRules all = new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
        assertSame(all, PathRules.of(all));
    }

    @Test
    void theCrawlDelayAndSitemapsAreKept() {
        BaseRobotRules rules = rules("User-agent: *\nCrawl-delay: 7\nDisallow: /x\nSitemap: http://a.test/map.xml\n");
        assertEquals(7000, rules.getCrawlDelay());
        assertEquals(List.of("http://a.test/map.xml"), rules.getSitemaps());
    }

    /**
     * Random rule sets and paths over a small alphabet, so that rules often match: the verdict is crawler-commons'
     * wherever no rule's last piece after a wildcard is anchored at the end (there crawler-commons looks at the first
     * place only), and is everywhere that of the patterns read as regular expressions, longest rule first.
     */
    @Test
    void randomRuleSetsGetCrawlerCommonsVerdictAndRfc9309s() {
        Random random = new Random(9309);
        int compared = 0;
        for (int round = 0; round < 3_000; round++) {
            List<String> lines = new ArrayList<>();
            int count = 1 + random.nextInt(6);
            for (int i = 0; i < count; i++) {
                lines.add((random.nextBoolean() ? "Allow: " : "Disallow: ") + pattern(random));
            }
            SimpleRobotRules parsed = parsed("User-agent: *\n" + String.join("\n", lines) + "\n");
            BaseRobotRules rules = PathRules.of(parsed);
            boolean crawlerCommonsReadsAlike = parsed.getRobotRules().stream().allMatch(rule -> !anchoredAfterWildcard(rule.getPrefix())
                    && !anchoredAfterWildcard(indexAlternative(rule))
                    && Objects.equals(indexAlternative(rule), crawlerCommonsIndexAlternative(rule.getPrefix())));
            for (int p = 0; p < 20; p++) {
                String path = "/" + text(random, random.nextInt(12));
                boolean verdict = rules.isAllowed(HOST + path);
                assertEquals(reference(parsed, SimpleRobotRules.escapePath(path, ENCODED_IN_PATHS)), verdict, () -> lines + " " + path);
                if (crawlerCommonsReadsAlike) {
                    assertEquals(parsed.isAllowed(HOST + path), verdict, () -> lines + " " + path);
                    compared++;
                }
            }
        }
        assertTrue(compared > 20_000, "most rule sets are compared with crawler-commons too: " + compared);
    }

    /**
     * A file of 500 KiB of patterns that each try a long piece at every place of a long path: each is matched here from
     * where its pieces occur (crawler-commons took seconds a URL for such a file).
     */
    @Test
    void aFileOfHostilePatternsGetsItsVerdicts() {
        StringBuilder robotsTxt = new StringBuilder("User-agent: *\n");
        int rules = 0;
        while (robotsTxt.length() < 500 * 1024) {
            robotsTxt.append("Disallow: /*").append("a".repeat(300)).append('b').append(rules++).append('\n');
        }
        BaseRobotRules hostile = rules(robotsTxt.toString());
        String longPath = "/" + "a".repeat(2_000);
        assertTrue(hostile.isAllowed(HOST + longPath));
        assertFalse(hostile.isAllowed(HOST + longPath + "b" + (rules - 1)));
        assertFalse(hostile.isAllowed(HOST + longPath + "b7/x"));
        assertTrue(hostile.isAllowed(HOST + "/" + "a".repeat(299) + "b7"));
    }

    private static String pattern(Random random) {
        StringBuilder pattern = new StringBuilder("/");
        int pieces = random.nextInt(4);
        for (int i = 0; i < pieces; i++) {
            pattern.append(text(random, random.nextInt(3)));
            if (random.nextInt(3) > 0) {
                pattern.append('*');
            }
        }
        if (random.nextInt(8) == 0) {
            pattern.append("index.html");
        }
        if (random.nextInt(3) == 0) {
            pattern.append('$');
        }
        return pattern.toString();
    }

    /** Mostly a few letters, so that patterns often match, with now and then what encoding changes or a query holds. */
    private static final String[] TOKENS = {"a", "b", "/", ".", "a", "b", "/", ".", "?", "=", "&", "%41", "%2F", "%7E", "é", "%"};

    private static String text(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(TOKENS[random.nextInt(TOKENS.length)]);
        }
        return text.toString();
    }

    private static boolean anchoredAfterWildcard(String pattern) {
        if (pattern == null || !pattern.endsWith("$")) {
            return false;
        }
        int wildcard = pattern.lastIndexOf('*');
        return wildcard >= 0 && wildcard < pattern.length() - 2;
    }

    /** The pattern an Allow rule for a directory's index page also stands for, as Google reads it; null for others. */
    private static String indexAlternative(SimpleRobotRules.RobotRule rule) {
        String pattern = rule.getPrefix();
        int lastSlash = pattern.lastIndexOf('/');
        return rule.isAllow() && lastSlash >= 0 && pattern.startsWith("/index.htm", lastSlash)
                ? pattern.substring(0, lastSlash + 1) + "$" : null;
    }

    /** The pattern crawler-commons reads any rule ending in {@code index.htm} or {@code index.html} to stand for too. */
    private static String crawlerCommonsIndexAlternative(String pattern) {
        return pattern.endsWith("index.htm") || pattern.endsWith("index.html")
                ? pattern.substring(0, pattern.indexOf("index.htm")) + "$" : null;
    }

    /**
     * The verdict with each pattern read as a regular expression ({@code *} any run, a final {@code $} the end) against
     * {@code path} encoded as crawler-commons encodes it.
     */
    private static boolean reference(SimpleRobotRules parsed, String path) {
        int longest = -1;
        boolean allowed = true;
        for (SimpleRobotRules.RobotRule rule : parsed.getRobotRules()) {
            for (String pattern : new String[] {rule.getPrefix(), indexAlternative(rule)}) {
                if (pattern == null || !regex(pattern).matcher(path).lookingAt()) {
                    continue;
                }
                if (pattern.length() > longest) {
                    longest = pattern.length();
                    allowed = rule.isAllow();
                } else if (pattern.length() == longest) {
                    allowed |= rule.isAllow();
                }
            }
        }
        return allowed;
    }

    private static Pattern regex(String pattern) {
        boolean anchored = pattern.endsWith("$");
        String body = anchored ? pattern.substring(0, pattern.length() - 1) : pattern;
        StringBuilder regex = new StringBuilder();
        for (String piece : body.split("\\*", -1)) {
            if (!regex.isEmpty()) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(piece));
        }
        return Pattern.compile(regex + (anchored ? "$" : ""), Pattern.DOTALL);
    }
}
