package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class CrawlStartsTest {

    private static final OptionalLong UNRECORDED = OptionalLong.empty();

    private final CrawlStarts starts = new CrawlStarts();

    @Test
    void aRecordedStartIsKnownAndAnUnrecordedOneIsWhenTheCrawlWasFirstListed() {
        assertEquals(1_000, starts.start("link:a:old", UNRECORDED, 1_000));
        assertEquals(700, starts.start("link:a:recorded", OptionalLong.of(700), 1_000));
        starts.listingDone(1_000);
        assertEquals(2_000, starts.start("link:a:new", UNRECORDED, 2_000));

        assertFalse(starts.known("link:a:old"), "active at the first listing: it started earlier");
        assertEquals(OptionalLong.empty(), starts.started("link:a:old"));
        assertEquals(OptionalLong.of(700), starts.started("link:a:recorded"));
        assertTrue(starts.known("link:a:recorded"));
        assertTrue(starts.known("link:a:new"));
        assertEquals(1_000, starts.start("link:a:old", UNRECORDED, 3_000), "the first listing's time stays");
    }

    @Test
    void aCrawlThatComesBackWithinTheHourKeepsItsStart() {
        starts.listingDone(0);
        starts.start("link:a:c1", UNRECORDED, 1_000);
        starts.listingDone(1_000);
        starts.listingDone(2_000);
        assertEquals(OptionalLong.of(1_000), starts.started("link:a:c1"), "a completed crawl's start");

        assertEquals(1_000, starts.start("link:a:c1", UNRECORDED, 2_000 + CrawlStarts.FORGET_MILLIS));
    }

    @Test
    void aCrawlGoneForOverAnHourIsForgotten() {
        starts.listingDone(0);
        starts.start("link:a:c1", UNRECORDED, 1_000);
        starts.listingDone(1_000);
        starts.listingDone(2_000);
        starts.listingDone(2_000 + CrawlStarts.FORGET_MILLIS);
        assertEquals(OptionalLong.of(1_000), starts.started("link:a:c1"), "gone for an hour, not more");
        starts.listingDone(2_000 + CrawlStarts.FORGET_MILLIS + 1);
        assertEquals(OptionalLong.empty(), starts.started("link:a:c1"));

        long back = 3_000 + CrawlStarts.FORGET_MILLIS;
        assertEquals(back, starts.start("link:a:c1", UNRECORDED, back), "listed anew");
    }

    @Test
    void onlyTheLastDepartedCrawlsAreKept() {
        starts.listingDone(0);
        for (int i = 0; i <= CrawlStarts.MAX_DEPARTED; i++) {
            String name = "link:a:c" + i;
            starts.start(name, UNRECORDED, i);
            starts.listingDone(i);
        }
        starts.listingDone(20_000);

        assertEquals(30_000, starts.start("link:a:c0", UNRECORDED, 30_000), "the earliest to leave is forgotten");
        assertEquals(1, starts.start("link:a:c1", UNRECORDED, 30_000));
        assertEquals(CrawlStarts.MAX_DEPARTED, starts.start("link:a:c" + CrawlStarts.MAX_DEPARTED, UNRECORDED, 30_000));
    }
}
