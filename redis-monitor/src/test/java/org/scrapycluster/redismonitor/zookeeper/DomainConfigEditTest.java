package org.scrapycluster.redismonitor.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigDocument;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.redismonitor.job.RejectedJobException;

/**
 * A zookeeper request read into its edit, and the edit applied to a node's text as the job stores it (read, edited,
 * written). That a refused request is answered with the reason and leaves the node as it was, and that the edits land
 * in ZooKeeper as the original writes them, is ZookeeperMonitorTest's.
 */
class DomainConfigEditTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aDomainIsKeptInLowerCaseAsQueueKeysSpellIt() {
        String text = edited("",
                "blacklist-update", "EBay.com", "{}",
                "blacklist-update", "Cnn.com", "{}",
                "domain-update", "DMOZtools.net", "{\"hits\":15,\"scale\":1.0,\"window\":60}",
                "blacklist-remove", "CNN.COM", "{}");
        assertEquals("blacklist:\n- ebay.com\ndomains:\n  dmoztools.net:\n    hits: 15\n    scale: 1.0\n    window: 60\n", text);
    }

    /**
     * Entries written by hand or by a Python Redis monitor as {@code Example.com} are applied by crawlers to
     * {@code example.com} (docs/throttling.md): a removal of the domain takes out every one of them, so that none stays
     * in force after a request answered as a success.
     */
    @Test
    void aRemovalTakesOutEveryEntryCrawlersApplyToTheDomainHoweverItIsSpelled() {
        String before = "blacklist:\n- Example.com\n- other.com\n- EXAMPLE.COM\n- B\u00fccher.de\n"
                + "domains:\n  Example.com:\n    hits: 5\n    window: 60\n  example.com:\n    hits: 15\n    window: 60\n"
                + "  other.com:\n    hits: 15\n    window: 60\n";
        String text = edited(before,
                "domain-remove", "example.com", "{}",
                "blacklist-remove", "example.com", "{}",
                "blacklist-remove", "b\u00fccher.de", "{}");

        assertEquals("blacklist:\n- other.com\ndomains:\n  other.com:\n    hits: 15\n    window: 60\n", text);
        DomainConfig applied = DomainConfigYaml.parseApplied(text).config().orElseThrow();
        assertEquals(Optional.of(List.of("other.com")), applied.blacklist(), "as crawlers apply it");
        assertEquals(Set.of("other.com"), applied.throttles().keySet());
    }

    /** An update replaces the entries of the domain spelled otherwise, rather than leave a stale one beside its own. */
    @Test
    void anUpdateReplacesTheEntriesOfTheDomainSpelledOtherwise() {
        String before = "blacklist:\n- a.com\n- Example.com\n- b.com\n- EXAMPLE.com\n"
                + "domains:\n  EXAMPLE.COM:\n    hits: 1\n    window: 60\n  Example.com:\n    hits: 5\n    window: 60\n";
        String text = edited(before,
                "blacklist-update", "example.com", "{}",
                "domain-update", "example.com", "{\"hits\":15,\"scale\":1.0,\"window\":60}");

        assertEquals("blacklist:\n- a.com\n- example.com\n- b.com\ndomains:\n  example.com:\n    hits: 15\n    scale: 1.0\n"
                + "    window: 60\n", text, "in the place of the first, once");
    }

    /**
     * An edit rewrites only the part it names: a fractional window (which Python crawlers apply as written), quoted
     * numbers and a key crawlers do not read are written back as they were, as the original writes them.
     */
    @Test
    void anEditKeepsWhatItDoesNotChangeAsWritten() {
        String before = "owner: crawl-team\ndomains:\n  a.com: {window: 0.5, hits: 10}\n  b.com: {window: \"60\", hits: \"30\"}\n";
        assertEquals("blacklist: []\ndomains:\n  a.com:\n    hits: 10\n    window: 0.5\n  b.com:\n    hits: '30'\n    window: '60'\n"
                        + "  cnn.com:\n    hits: 15\n    scale: 0.9\n    window: 60\nowner: crawl-team\n",
                edited(before, "domain-update", "cnn.com", "{\"hits\":15,\"scale\":0.9,\"window\":60}"));
    }

    @Test
    void anInternationalisedDomainIsKeptInTheAsciiFormQueueKeysUse() {
        String text = edited("",
                "blacklist-update", "B\u00fccher.de", "{}",
                "domain-update", "b\u00fccher.de", "{\"hits\":15,\"scale\":1.0,\"window\":60}");
        assertEquals("blacklist:\n- xn--bcher-kva.de\ndomains:\n  xn--bcher-kva.de:\n    hits: 15\n    scale: 1.0\n    window: 60\n", text);

        assertRefused("'domain' has no ASCII form (IDNA): The label in the input is too long",
                "blacklist-update", "\u00fc".repeat(64) + ".de", "{}");
    }

    /**
     * A domain holding a control character, which no host name has, is refused: written, it would stand in the node as
     * {@code !!binary} base64 that crawlers cannot read as a domain.
     */
    @Test
    void aDomainWithAControlCharacterIsRefused() {
        assertRefused("'domain' holds the control character U+0001, which no domain name has", "blacklist-update", "evil\u0001.com", "{}");
        assertRefused("'domain' holds the control character U+007F, which no domain name has", "domain-remove", "evil\u007f.com", "{}");
    }

    @Test
    void aWindowBeyondAYearIsRefusedAndHitsBeyondALongAreNotWrapped() {
        assertRefused("'window' must be above 0 and at most 31536000 seconds (a year) for domain update, was 18446744073709551616",
                "domain-update", "cnn.com", "{\"hits\":15,\"scale\":1.0,\"window\":18446744073709551616}");
        assertRefused("'window' must be above 0 and at most 31536000 seconds (a year) for domain update, was -60",
                "domain-update", "cnn.com", "{\"hits\":15,\"scale\":1.0,\"window\":-60}");
        assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 9223372036854775807\n    scale: 1.0\n    window: 60\n",
                edited("", "domain-update", "cnn.com", "{\"hits\":9223372036854775808,\"scale\":1.0,\"window\":60}"));
    }

    /**
     * A window with a fraction of a second in a job written straight into Redis (a Kafka monitor's request has whole
     * seconds) is written as given, as the original writes it (60.0 a float), and crawlers apply it as written: 1.5 is
     * not cut to 1, nor 0.5 taken for no window at all.
     */
    @Test
    void aFractionalWindowIsWrittenAsGiven() {
        String text = edited("",
                "domain-update", "a.com", "{\"hits\":15,\"window\":1.5}",
                "domain-update", "b.com", "{\"hits\":15,\"window\":0.5}",
                "domain-update", "c.com", "{\"hits\":15,\"window\":\"0.25\"}",
                "domain-update", "d.com", "{\"hits\":15,\"window\":60.0}");
        assertRefused("'window' must be above 0 and at most 31536000 seconds (a year) for domain update, was -0.5",
                "domain-update", "e.com", "{\"hits\":15,\"window\":-0.5}");

        assertEquals("blacklist: []\ndomains:\n  a.com:\n    hits: 15\n    scale: 1.0\n    window: 1.5\n"
                + "  b.com:\n    hits: 15\n    scale: 1.0\n    window: 0.5\n  c.com:\n    hits: 15\n    scale: 1.0\n    window: 0.25\n"
                + "  d.com:\n    hits: 15\n    scale: 1.0\n    window: 60.0\n", text);
        Map<String, Double> applied = DomainConfigYaml.parseApplied(text).config().orElseThrow().throttles().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().appliedWindow()));
        assertEquals(Map.of("a.com", 1.5, "b.com", 0.5, "c.com", 0.25, "d.com", 60.0), applied, "as crawlers apply it");
    }

    /** A scale that is not a number from 0 to 1 is refused, not written for crawlers to clamp or to read as 1. */
    @Test
    void aScaleOutsideZeroToOneIsRefusedAndNoneIsOne() {
        Map<String, String> quotedInTheRefusal = Map.of("1e9", "1000000000.0", "-0.5", "-0.5", "\"half\"", "'half'", "true", "true");
        quotedInTheRefusal.forEach((scale, given) -> assertRefused("'scale' must be a number from 0 to 1 for domain update, was " + given,
                "domain-update", "cnn.com", "{\"hits\":15,\"scale\":" + scale + ",\"window\":60}"));
        String oneByDefault = "blacklist: []\ndomains:\n  cnn.com:\n    hits: 15\n    scale: 1.0\n    window: 60\n";
        assertEquals(oneByDefault, edited("", "domain-update", "cnn.com", "{\"hits\":15,\"window\":60}"));
        assertEquals(oneByDefault, edited("", "domain-update", "cnn.com", "{\"hits\":15,\"scale\":null,\"window\":60}"));
    }

    /**
     * An update for a domain no queue key names (a subdomain, a path) is refused, saying which domain it belongs to; a
     * removal is not, so that such an entry written before can be taken out.
     */
    @Test
    void anUpdateForADomainNoQueueNamesIsRefusedAndARemovalIsNot() {
        assertRefused("'www.bbc.co.uk' is not a registered domain as queue keys use it; its registered domain is 'bbc.co.uk',"
                + " so crawlers would never apply it", "blacklist-update", "www.bbc.co.uk", "{}");
        assertRefused("'cnn.com/news' is not a registered domain as queue keys use it; its registered domain is 'cnn.com',"
                + " so crawlers would never apply it", "domain-update", "cnn.com/news", "{\"hits\":15,\"window\":60}");

        assertEquals("blacklist: []\ndomains: {}\n",
                edited("blacklist:\n- www.ebay.com\ndomains: {}\n", "blacklist-remove", "www.ebay.com", "{}"));
    }

    @Test
    void anUpdateWithoutHitsOrWindowAndAnUnknownActionAreRefused() {
        assertRefused("'hits' and 'window' not set for domain update", "domain-update", "cnn.com", "{}");
        assertRefused("'hits' and 'window' not set for domain update", "domain-update", "cnn.com", "{\"hits\":15}");
        assertRefused("'hits' and 'window' not set for domain update", "domain-update", "cnn.com", "{\"hits\":\"many\",\"window\":60}");
        assertRefused("Unknown zookeeper action 'domain-upgrade'; one of domain-update, domain-remove, blacklist-update, blacklist-remove",
                "domain-upgrade", "cnn.com", "{}");
    }

    /**
     * {@code before} with the edits of {@code requests} (action, domain, value, and again) applied one after another,
     * each to the text the one before wrote, as the job reads and writes the node.
     */
    private static String edited(String before, String... requests) {
        String text = before;
        for (int i = 0; i < requests.length; i += 3) {
            text = DomainConfigEdit.read(requests[i], requests[i + 1], tree(requests[i + 2])).apply(DomainConfigDocument.read(text)).text();
        }
        return text;
    }

    private static void assertRefused(String reason, String action, String domain, String value) {
        RejectedJobException refused = assertThrows(RejectedJobException.class, () -> DomainConfigEdit.read(action, domain, tree(value)));
        assertEquals(reason, refused.getMessage());
    }

    private static JsonNode tree(String value) {
        try {
            return JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(value, e);
        }
    }
}
