package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class DomainConfigDiffTest {

    @Test
    void listsEveryChange() {
        DomainConfig before = config("""
                blacklist: [bingo.com]
                domains:
                  cnn.com: {window: 60, hits: 10, scale: 1.0}
                  ebay.com: {window: 60, hits: 5, scale: 1.0}
                """);
        DomainConfig after = config("""
                blacklist: [ebay.com]
                domains:
                  cnn.com: {window: 60, hits: 15, scale: 0.9}
                  wikipedia.org: {window: 30, hits: 20, scale: 0.5}
                """);
        assertEquals(List.of(
                "blacklist: added ebay.com",
                "blacklist: removed bingo.com",
                "domains.cnn.com: hits 10 → 15, scale 1.0 → 0.9",
                "domains.ebay.com: removed",
                "domains.wikipedia.org: added (window 30, hits 20, scale 0.5)"),
                DomainConfigDiff.between(before, after));
    }

    @Test
    void tellsWhenTheBlacklistKeyAppearsOrGoesAndWhenAPartIsMissing() {
        DomainThrottle partial = new DomainThrottle(OptionalDouble.empty(), OptionalDouble.of(5), OptionalDouble.empty());
        DomainConfig before = new DomainConfig(Optional.of(List.of()), new TreeMap<>());
        TreeMap<String, DomainThrottle> domains = new TreeMap<>();
        domains.put("half.org", partial);
        DomainConfig after = new DomainConfig(Optional.empty(), domains);
        assertEquals(List.of(
                "blacklist: key removed (crawlers keep the blacklist they have)",
                "domains.half.org: added (window (none), hits 5, scale (none))"),
                DomainConfigDiff.between(before, after));
        assertEquals(List.of("blacklist: key added (crawlers replace their blacklist with it)", "domains.half.org: removed"),
                DomainConfigDiff.between(after, before));
        assertEquals(List.of(), DomainConfigDiff.between(after, after));
    }

    private static DomainConfig config(String text) {
        return DomainConfigYaml.parseStrict(text).config().orElseThrow();
    }
}
