package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.testing.ResourceFixtures;

class DomainConfigYamlTest {

    @Test
    void readsTheSection52Example() {
        String text = ResourceFixtures.text("zookeeper/parse/section-5.2-example.yml");
        for (ParsedDomainConfig parsed : List.of(DomainConfigYaml.parseStrict(text), DomainConfigYaml.parseLenient(text))) {
            assertEquals(List.of(), parsed.problems());
            DomainConfig config = parsed.config().orElseThrow();
            assertEquals(Optional.of(List.of("ebay.com")), config.blacklist());
            assertEquals(Set.of("dmoztools.net", "wikipedia.org"), config.throttles().keySet());
            assertEquals(DomainThrottle.of(60, 30, 0.5), config.throttles().get("wikipedia.org"));
            assertEquals(15, config.throttles().get("wikipedia.org").effectiveHits());
        }
    }

    @Test
    void anAnchoredThrottleIsSharedByAnyNumberOfDomainsAsPyYamlReadsIt() {
        StringBuilder text = new StringBuilder("domains:\n  site0.com: &d {window: 60, hits: 10, scale: 0.5}\n");
        for (int i = 1; i < 200; i++) {
            text.append("  site").append(i).append(".com: *d\n");
        }
        for (ParsedDomainConfig parsed : List.of(DomainConfigYaml.parseStrict(text.toString()), DomainConfigYaml.parseLenient(text.toString()))) {
            assertEquals(List.of(), parsed.problems());
            Map<String, DomainThrottle> throttles = parsed.config().orElseThrow().throttles();
            assertEquals(200, throttles.size());
            assertEquals(DomainThrottle.of(60, 10, 0.5), throttles.get("site199.com"));
        }
    }

    @Test
    void keysCrawlersDoNotReadAreSaidAtTheTopAndInAnEntryAndTheRestApplied() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient("""
                owner: crawl-team
                domains:
                  x.com: {window: 60, hits: 1, extra: [a]}
                """);
        assertEquals(List.of(new ConfigProblem("owner", "unknown key (only blacklist and domains are read)"),
                new ConfigProblem("domains.x.com.extra", "unknown key (only window, hits and scale are read)")), parsed.problems());
        DomainThrottle applied = parsed.config().orElseThrow().throttles().get("x.com");
        assertEquals(60.0, applied.window().orElseThrow());
        assertEquals(1.0, applied.hits().orElseThrow());
    }

    @Test
    void aYamlBombIsReadOnceAndWrittenBackWithItsAliasesNotItsExpansion() {
        // nine levels of nine aliases: a billion strings, were every alias expanded
        String text = bomb('i') + "domains:\n  cnn.com: {window: 60, hits: 10, scale: 1.0}\n";

        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient(text);
        assertEquals(DomainThrottle.of(60, 10, 1.0), parsed.config().orElseThrow().throttles().get("cnn.com"));
        assertEquals(List.of(new ConfigProblem("laughs", "unknown key (only blacklist and domains are read)")), parsed.problems());

        String edited = DomainConfigDocument.read(text).domainUpdate("ebay.com", 60, 5, 1.0).text();
        assertTrue(edited.contains("ebay.com") && edited.contains("*id001"), edited);
        assertTrue(edited.length() < 10 * text.length(), edited.length() + " characters, not a billion strings");
    }

    @Test
    void aCollectionAsAKeyIsRefusedAsPyYamlRefusesItNotHashed() {
        // twenty levels: hashing the key would walk 9^20 strings
        for (String key : List.of("? *t\n: x", "!!set {? *t}", "? [a, b]\n: x")) {
            String text = bomb('t') + "domains:\n  " + key.replace("\n", "\n  ") + "\n";

            ParsedDomainConfig parsed = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> DomainConfigYaml.parseLenient(text));

            assertFalse(parsed.isUsable(), key);
            assertTrue(parsed.problems().toString().contains("found unhashable key"), parsed.problems().toString());
        }
    }

    @Test
    void aBlacklistEntryOfAliasesIsKeptAsItIsByAnEditNotHashed() {
        String text = bomb('t') + "blacklist: [ebay.com, *t, ebay.com]\n";

        String edited = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> DomainConfigDocument.read(text).blacklistUpdate("cnn.com").text());

        assertTrue(edited.startsWith("blacklist:\n- ebay.com\n- &id") && edited.contains("\n- cnn.com\n"), edited);
        assertEquals(1, edited.split("ebay.com", -1).length - 1, "each entry of text once: " + edited);
        assertTrue(edited.length() < 10 * text.length(), edited.length() + " characters, not 9^19 strings");
    }

    @Test
    void aScalarTagOnACollectionMakesTheTextUnusableNotAnException() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient("owner: !!int [1]\ndomains: {}\n");

        assertFalse(parsed.isUsable());
    }

    /** A mapping {@code laughs} of YAML aliases, from {@code a} to {@code last}, each level nine aliases of the one before. */
    private static String bomb(char last) {
        StringBuilder bomb = new StringBuilder("laughs:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char level = 'b'; level <= last; level++) {
            bomb.append("  ").append(level).append(": &").append(level).append(" [")
                    .append(String.join(", ", Collections.nCopies(9, "*" + (char) (level - 1)))).append("]\n");
        }
        return bomb.toString();
    }

    @Test
    void aPublicSuffixIsNamedAsOne() {
        assertEquals(Optional.of("'com' is not a registered domain as queue keys use it; it is a public suffix, whose pages are "
                + "queued under '.com'"), DomainConfigYaml.notARegisteredDomain("com"));
        assertEquals(Optional.empty(), DomainConfigYaml.notARegisteredDomain(".com"), "as it says: the key of those pages");
        assertEquals(Optional.empty(), DomainConfigYaml.notARegisteredDomain(".gov.uk"));
    }

    @Test
    void strictModeReportsEveryProblemWithItsPath() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseStrict(ResourceFixtures.text("zookeeper/parse/many-problems.yml"));
        assertFalse(parsed.isUsable());
        assertEquals(ResourceFixtures.text("zookeeper/parse/many-problems.strict.txt").lines().toList(),
                parsed.problems().stream().map(ConfigProblem::toString).toList());
    }

    @Test
    void lenientModeSkipsWhatCrawlersCannotUseAndKeepsTheRest() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient(ResourceFixtures.text("zookeeper/parse/many-problems.yml"));
        assertEquals(ResourceFixtures.text("zookeeper/parse/many-problems.lenient.txt").lines().toList(),
                parsed.problems().stream().map(ConfigProblem::toString).toList());
        DomainConfig config = parsed.config().orElseThrow();
        assertEquals(Optional.of(List.of("ebay.com", "www.bbc.co.uk")), config.blacklist());
        assertEquals(Set.of("Example.com", "cnn.com", "float.org", "half.example.org", "paused.org"), config.domains().keySet());
        assertEquals(Set.of("Example.com", "float.org", "paused.org"), config.throttles().keySet());
        assertEquals(DomainThrottle.of(60.5, 10, 0.5), config.throttles().get("float.org"), "a fractional window is kept");
        assertEquals(1.5, config.domains().get("cnn.com").scale().getAsDouble(), "a scale is kept as written");
    }

    @Test
    void crawlersReadEveryDomainAsQueueKeysSpellIt() {
        String text = """
                blacklist: [EVIL.com, ok.com]
                domains:
                  Bücher.de: {window: 60, hits: 10}
                  Example.com: {window: 60, hits: 1}
                  example.com: {window: 60, hits: 2}
                  plain.org: {window: 60, hits: 3}
                """;
        ParsedDomainConfig parsed = DomainConfigYaml.parseApplied(text);
        DomainConfig config = parsed.config().orElseThrow();
        assertEquals(Optional.of(List.of("evil.com", "ok.com")), config.blacklist());
        assertEquals(Set.of("xn--bcher-kva.de", "example.com", "plain.org"), config.throttles().keySet());
        assertEquals(2, config.throttles().get("example.com").effectiveHits(), "the entry spelled as queue keys spell it is read");
        assertEquals(List.of(
                "blacklist[0]: is read as evil.com, as queue keys spell it",
                "domains.Bücher.de: is read as xn--bcher-kva.de, as queue keys spell it",
                "domains.Example.com: is example.com as queue keys spell it, which the config names as example.com too;"
                        + " that entry is read"),
                parsed.problems().stream().map(ConfigProblem::toString).sorted().toList());
        assertEquals(Set.of("Bücher.de", "Example.com", "example.com", "plain.org"),
                DomainConfigYaml.parseLenient(text).config().orElseThrow().domains().keySet(),
                "the Redis monitor's read-modify-write keeps every entry as written");
    }

    @Test
    void aDomainNamedTwoWaysNeitherAsQueueKeysSpellItHasOneEntryReadAndTheOtherNamed() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseApplied("""
                domains:
                  Example.com: {window: 60, hits: 1}
                  EXAMPLE.COM: {window: 60, hits: 2}
                """);
        assertEquals(1, parsed.config().orElseThrow().throttles().get("example.com").effectiveHits(), "the last in sorted order");
        assertEquals(List.of(
                "domains.EXAMPLE.COM: is example.com as queue keys spell it, which the config names as Example.com too; that entry is read",
                "domains.Example.com: is read as example.com, as queue keys spell it"),
                parsed.problems().stream().map(ConfigProblem::toString).sorted().toList());
    }

    /**
     * What crawlers apply otherwise than it is written is said, each with its path, not applied silently: a scale outside
     * 0..1 (clamped), a key written twice (the last is read), and a domain no queue has, as with a port, a path or a
     * subdomain (docs/throttling.md). Hits below 0 are a pause a request may ask for, and applied without a word.
     */
    @Test
    void crawlersSayWhatTheyApplyOtherwiseThanWritten() {
        String text = """
                blacklist: [ebay.com:8080, www.bbc.co.uk, cnn.com]
                domains:
                  neg.com: {window: 60, hits: -5}
                  big.com: {window: 60, hits: 10, scale: 1.0e+9}
                  cnn.com/news: {window: 60, hits: 5}
                  nyt.com: {window: 60, hits: 10}
                  nyt.com: {window: 60, hits: 20, hits: 30}
                """;
        ParsedDomainConfig parsed = DomainConfigYaml.parseApplied(text);
        assertEquals(List.of(
                "blacklist[0]: 'ebay.com:8080' is not a registered domain as queue keys use it; its registered domain is 'ebay.com'; "
                        + "no queue matches it",
                "blacklist[1]: 'www.bbc.co.uk' is not a registered domain as queue keys use it; its registered domain is 'bbc.co.uk'; "
                        + "no queue matches it",
                "domains.big.com.scale: must be a number from 0 to 1, was 1000000000.0; crawlers read it as 1.0",
                "domains.cnn.com/news: 'cnn.com/news' is not a registered domain as queue keys use it; its registered domain is 'cnn.com'; "
                        + "no queue matches it",
                "domains.nyt.com.hits: is written more than once; the last is read",
                "domains.nyt.com: is written more than once; the last is read"),
                parsed.problems().stream().map(ConfigProblem::toString).sorted().toList());
        DomainConfig config = parsed.config().orElseThrow();
        assertTrue(config.throttles().get("neg.com").effectiveHits() < 1, "applied as written: a pause");
        assertEquals(30, config.throttles().get("nyt.com").effectiveHits());
    }

    /** A pause a {@code domain-update} wrote (hits below 0) is pulled and pushed back as it is. */
    @Test
    void aPausedDomainPassesThePushCheck() {
        String pulled = DomainConfigDocument.read("").domainUpdate("paused.org", 60, -1, 1.0).text();

        ParsedDomainConfig pushed = DomainConfigYaml.parseStrict(pulled);

        assertEquals(List.of(), pushed.problems());
        assertEquals(-1, pushed.config().orElseThrow().domains().get("paused.org").hits().getAsDouble());
    }

    /** A blacklist entry is named by its place in the document, also after an entry that is skipped. */
    @Test
    void aBlacklistEntryIsNamedByItsPlaceInTheDocument() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseApplied("blacklist: [42, EVIL.com, ok.com]\n");
        assertEquals(List.of("blacklist[0]: must be a domain name, was 42", "blacklist[1]: is read as evil.com, as queue keys spell it"),
                parsed.problems().stream().map(ConfigProblem::toString).toList());
        assertEquals(Optional.of(List.of("evil.com", "ok.com")), parsed.config().orElseThrow().blacklist());
    }

    @Test
    void anAbsentBlacklistIsNotAnEmptyOne() {
        DomainConfig absent = DomainConfigYaml.parseLenient("domains: {}\n").config().orElseThrow();
        DomainConfig empty = DomainConfigYaml.parseLenient("blacklist:\ndomains: {}\n").config().orElseThrow();
        assertEquals(Optional.empty(), absent.blacklist());
        assertEquals(Optional.of(List.of()), empty.blacklist());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   \n", "# only a comment\n", "~"})
    void anEmptyDocumentIsAnEmptyConfig(String text) {
        assertEquals(Optional.of(DomainConfig.EMPTY), DomainConfigYaml.parseStrict(text).config());
        assertEquals(Optional.of(DomainConfig.EMPTY), DomainConfigYaml.parseLenient(text).config());
    }

    @Test
    void garbageIsAnErrorInBothModes() {
        assertEquals(List.of(new ConfigProblem("document", "must be a mapping with the keys blacklist and domains, was 'garbage'")),
                DomainConfigYaml.parseLenient("garbage").problems());
        assertFalse(DomainConfigYaml.parseLenient("- a\n- b\n").isUsable());
        ParsedDomainConfig broken = DomainConfigYaml.parseLenient("domains: {cnn.com: [\n");
        assertFalse(broken.isUsable());
        assertTrue(broken.problems().getFirst().message().startsWith("cannot be read as YAML"), broken.problems().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "domains:\n  cnn.com: {window: !!int sixty, hits: 10}\n",
        "domains:\n  cnn.com: {window: 60, hits: 10, scale: !!float half}\n",
        "blacklist: !!binary '@@@@'\n"})
    void aValueItsTagCannotReadIsAnErrorInBothModesNotAnException(String text) {
        for (ParsedDomainConfig parsed : List.of(DomainConfigYaml.parseLenient(text), DomainConfigYaml.parseStrict(text))) {
            assertFalse(parsed.isUsable());
            assertTrue(parsed.problems().getFirst().message().startsWith("cannot be read as YAML"), parsed.problems().toString());
        }
    }

    @Test
    void strictModeRejectsDuplicateKeysThatLenientModeResolvesLastWins() {
        String text = "domains:\n  cnn.com: {window: 60, hits: 10}\n  cnn.com: {window: 60, hits: 20}\n";
        assertFalse(DomainConfigYaml.parseStrict(text).isUsable());
        assertEquals(20, DomainConfigYaml.parseLenient(text).config().orElseThrow().throttles().get("cnn.com").effectiveHits());
    }

    @Test
    void aScaleThatIsNotANumberIsSkippedNotReadAsAPause() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient("domains:\n  cnn.com: {window: 60, hits: 10, scale: .nan}\n");
        assertEquals(10, parsed.config().orElseThrow().throttles().get("cnn.com").effectiveHits(), "no scale counts as 1");
        assertEquals(List.of(new ConfigProblem("domains.cnn.com.scale", "must be a number from 0 to 1, was nan")), parsed.problems());
    }

    @Test
    void hitsThatAreNotANumberPauseTheDomainAndSaySo() {
        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient("domains:\n  cnn.com: {window: 60, hits: .nan}\n");
        assertEquals(0, parsed.config().orElseThrow().throttles().get("cnn.com").effectiveHits(), "no count is below .nan");
        assertEquals(List.of(new ConfigProblem("domains.cnn.com.hits", "is .nan, which no count is below; crawlers pause the domain")),
                parsed.problems());
        assertEquals(List.of(new ConfigProblem("domains.cnn.com.hits", "must be a whole number of hits, was nan")),
                DomainConfigYaml.parseStrict("domains:\n  cnn.com: {window: 60, hits: .nan}\n").problems());
    }

    /** A request refuses a window over a year; a file pushed with one is refused too, and crawlers reading one say they cut it. */
    @Test
    void aWindowOverAYearIsAProblemInBothModes() {
        String text = "domains:\n  cnn.com: {window: 31536001, hits: 10}\n";
        assertEquals(List.of(new ConfigProblem("domains.cnn.com.window", "must be at most 31536000 (a year), was 31536001")),
                DomainConfigYaml.parseStrict(text).problems());
        assertEquals(List.of(new ConfigProblem("domains.cnn.com.window",
                "must be at most 31536000 (a year), was 31536001; crawlers count it as a year")), DomainConfigYaml.parseLenient(text).problems());
    }

    /**
     * A fractional window, as a {@code domain-update} writes it and crawlers of either kind apply it, passes the strict
     * reading of {@code push}, so a config pulled with one can be pushed back; a window of 0 or less does not.
     */
    @Test
    void aFractionalWindowPassesStrictReadingAndNoWindowAtAllDoesNot() {
        String text = "domains:\n  cnn.com: {window: 0.5, hits: 10, scale: 1.0}\n  bbc.com: {window: 1.5, hits: 3, scale: 1.0}\n";
        DomainConfig config = DomainConfigYaml.parseStrict(text).config().orElseThrow();
        assertEquals(DomainThrottle.of(0.5, 10, 1.0), config.throttles().get("cnn.com"));
        assertEquals(DomainThrottle.of(1.5, 3, 1.0), config.throttles().get("bbc.com"));
        assertEquals(List.of(new ConfigProblem("domains.cnn.com.window", "must be above 0, was 0")),
                DomainConfigYaml.parseStrict("domains:\n  cnn.com: {window: 0, hits: 10}\n").problems());
    }

    @Test
    void writesKeysThatNeedQuotingAsPyYamlDoes() {
        String text = DomainConfigDocument.read("").domainUpdate("[2001:db8::1].", 60, 10, 1.0).blacklistUpdate("localhost.").text();
        assertEquals("blacklist:\n- localhost.\ndomains:\n  '[2001:db8::1].':\n    hits: 10\n    scale: 1.0\n    window: 60\n", text);
        DomainConfig config = DomainConfigYaml.parseStrict(text).config().orElseThrow();
        assertEquals(Optional.of(List.of("localhost.")), config.blacklist());
        assertEquals(DomainThrottle.of(60, 10, 1.0), config.domains().get("[2001:db8::1]."));
    }

    /** PyYAML 3.12's answers: a float needs a point and a signed exponent, a sign goes before a digit only. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "1e3 | text 1e3", "1.5e3 | text 1.5e3", "1e+3 | text 1e+3", "1.e5 | text 1.e5", "09 | text 09", "-.5 | text -.5",
        "+.5 | text +.5", "1.5e+3 | 1500.0", ".5 | 0.5", "0x1F | 31", "017 | 15", "1:20 | 80", "1_0 | 10", "0_ | 0", "yes | true",
    })
    void plainScalarsAreReadAsPyYamlReadsThem(String plain, String python) {
        Object read = ((Map<?, ?>) DomainConfigYaml.reader(false).load("x: " + plain)).get("x");
        assertEquals(python, read instanceof String text ? "text " + text : String.valueOf(read));
    }

    /** Both fail: a number with no digits, and YAML 1.1's value key, which PyYAML's safe loader cannot build. */
    @ParameterizedTest
    @ValueSource(strings = {"blacklist: [0b_]", "blacklist: [0x_]", "blacklist: [=]"})
    void whatPyYamlCannotReadIsNotValidYaml(String text) {
        assertFalse(DomainConfigYaml.parseLenient(text).isUsable());
    }

    /** As PyYAML 3.12's {@code safe_dump} writes the same list. */
    @Test
    void textIsQuotedWherePyYamlQuotesIt() {
        List<String> blacklist = List.of("1e3", "09", "=", "a\nb", "yes", "017", "1.5e+3", "0_9", "x\u2028y", "  lead");
        assertEquals("""
                blacklist:
                - 1e3
                - 09
                - '='
                - 'a

                  b'
                - 'yes'
                - '017'
                - '1.5e+3'
                - 0_9
                - "x\\Ly"
                - '  lead'
                domains: {}
                """, PyYamlWriter.write(Map.of("blacklist", blacklist, "domains", Map.of())));
    }

    /**
     * Python crawlers convert a window and hits with {@code float()}, so a number written as text applies: quoted, or
     * one PyYAML reads as text ({@code 1e3}); and a boolean is a number to Python. Ours apply them too, with a warning;
     * {@code push} refuses them.
     */
    @Test
    void crawlersReadNumbersInTextAndBooleansAsPythonCrawlersDo() {
        String text = """
                domains:
                  quoted.org: {window: '60', hits: ' 30 '}
                  exponent.org: {window: 1e3, hits: 1.5e3}
                  word.org: {window: 60, hits: ten}
                  flags.org: {window: 60, hits: yes, scale: off}
                """;
        ParsedDomainConfig lenient = DomainConfigYaml.parseLenient(text);
        assertEquals(30, lenient.config().orElseThrow().throttles().get("quoted.org").effectiveHits());
        assertEquals(60.0, lenient.config().orElseThrow().throttles().get("quoted.org").window().getAsDouble());
        assertEquals(1500, lenient.config().orElseThrow().throttles().get("exponent.org").effectiveHits());
        assertEquals(1000.0, lenient.config().orElseThrow().throttles().get("exponent.org").window().getAsDouble());
        assertEquals(0, lenient.config().orElseThrow().throttles().get("flags.org").effectiveHits(), "scale: off is 0, a pause");
        assertEquals(1, lenient.config().orElseThrow().throttles().get("flags.org").hits().getAsDouble());
        assertEquals(Set.of("quoted.org", "exponent.org", "flags.org"), lenient.config().orElseThrow().throttles().keySet());
        assertEquals(List.of(
                "domains.quoted.org.window: is text, '60', which crawlers read as the number 60.0",
                "domains.quoted.org.hits: is text, ' 30 ', which crawlers read as the number 30.0",
                "domains.exponent.org.window: is text, '1e3', which crawlers read as the number 1000.0",
                "domains.exponent.org.hits: is text, '1.5e3', which crawlers read as the number 1500.0",
                "domains.word.org.hits: must be a whole number of hits, was 'ten'",
                "domains.word.org: has no hits; crawlers ignore an entry without both",
                "domains.flags.org.hits: is true, which crawlers read as the number 1",
                "domains.flags.org.scale: is false, which crawlers read as the number 0"),
                lenient.problems().stream().map(ConfigProblem::toString).toList());
        assertEquals(List.of(
                "domains.quoted.org.window: must be a number of seconds, was '60' (text; a number is written 60)",
                "domains.quoted.org.hits: must be a whole number of hits, was ' 30 ' (text; a number is written 30)",
                "domains.exponent.org.window: must be a number of seconds, was '1e3' (text; a number is written 1000)",
                "domains.exponent.org.hits: must be a whole number of hits, was '1.5e3' (text; a number is written 1500)"),
                DomainConfigYaml.parseStrict(text).problems().stream().map(ConfigProblem::toString).filter(p -> p.contains("(text;")).toList());
    }

    /** A Python crawler blacklists the domain a text names (its test is {@code in}); push refuses the text. */
    @Test
    void aBlacklistThatIsOneDomainBlacklistsIt() {
        ParsedDomainConfig applied = DomainConfigYaml.parseApplied("blacklist: Ebay.com\n");
        assertEquals(Optional.of(List.of("ebay.com")), applied.config().orElseThrow().blacklist());
        assertEquals(List.of("blacklist: is text, not a list; crawlers read it as the list [Ebay.com]",
                "blacklist[0]: is read as ebay.com, as queue keys spell it"),
                applied.problems().stream().map(ConfigProblem::toString).toList());
        assertEquals(List.of(new ConfigProblem("blacklist", "must be a list of domains, was 'Ebay.com'")),
                DomainConfigYaml.parseStrict("blacklist: Ebay.com\n").problems());
    }

    /** A Python crawler blacklists each domain the text names; so do ours, rather than one name that matches no queue. */
    @Test
    void aBlacklistThatIsTextNamingSeveralDomainsBlacklistsEach() {
        for (String text : List.of("blacklist: ebay.com, cnn.com\n", "blacklist: ebay.com cnn.com\n", "blacklist: 'ebay.com,cnn.com,'\n")) {
            assertEquals(Optional.of(List.of("ebay.com", "cnn.com")),
                    DomainConfigYaml.parseApplied(text).config().orElseThrow().blacklist(), text);
        }
    }

    /** The largest hits a config holds is written as that whole number, as the Redis monitor stores it, not as 9.2e18. */
    @Test
    void aWholeNumberIsWrittenWholeUpToTheLargestLong() {
        assertEquals(60L, DomainConfigYaml.asWritten(60.0));
        assertEquals(0.5, DomainConfigYaml.asWritten(0.5));
        assertEquals(Long.MAX_VALUE, DomainConfigYaml.asWritten((double) Long.MAX_VALUE));
        assertEquals(1e19, DomainConfigYaml.asWritten(1e19));
    }
}
