package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalDouble;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** A crawl's pages a second over the last minute of readings, or over the gap an idle view left. */
class PageRatesTest {

    private final PageRates rates = new PageRates();

    @Test
    void theChangeOverTheLastMinuteOfReadings() {
        assertEquals(OptionalDouble.empty(), rates.rate("c1", 100, 0), "a first reading has nothing to compare with");
        assertEquals(OptionalDouble.of(2.0), rates.rate("c1", 120, 10_000));
        assertEquals(OptionalDouble.of(2.0), rates.rate("c1", 220, 60_000));
        assertEquals(OptionalDouble.of(1.833), rates.rate("c1", 230, 70_000),
                "from the newest reading at least a minute old: 110 pages in 60 s");
    }

    @Test
    void anIdleViewRefreshingALittleLessThanOnceAMinuteComparesWithTheReadingBefore() {
        rates.rate("c1", 0, 0);
        assertEquals(OptionalDouble.of(2.0), rates.rate("c1", 125, 62_500));
        assertEquals(OptionalDouble.of(2.0), rates.rate("c1", 250, 125_000), "not 0: the reading before is just over a minute old");
    }

    @Test
    void aCrawlNoLongerListedStartsAgain() {
        rates.rate("c1", 0, 0);
        rates.keepOnly(Set.of());
        assertEquals(OptionalDouble.empty(), rates.rate("c1", 600, 60_000));
    }
}
