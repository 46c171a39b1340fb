package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class DomainConfigDiffTest {

    @Test
    void listsEveryChange() {
        DomainConfig before = DomainConfig.EMPTY
                .domainUpdate("cnn.com", 60, 10, 1.0)
                .domainUpdate("ebay.com", 60, 5, 1.0)
                .blacklistUpdate("bingo.com");
        DomainConfig after = before
                .domainUpdate("cnn.com", 60, 15, 0.9)
                .domainRemove("ebay.com")
                .domainUpdate("wikipedia.org", 30, 20, 0.5)
                .blacklistRemove("bingo.com")
                .blacklistUpdate("ebay.com");
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
        DomainThrottle partial = new DomainThrottle(OptionalLong.empty(), OptionalLong.of(5), OptionalDouble.empty());
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
}
