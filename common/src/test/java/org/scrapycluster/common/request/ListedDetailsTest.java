package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class ListedDetailsTest {

    private static final List<String> THOUSAND = IntStream.range(0, 1000).mapToObj(i -> "field" + i + ": is required").toList();

    @Test
    void aFewDetailsAreListedAsTheyAre() {
        assertEquals(THOUSAND.subList(0, ListedDetails.MAX_LISTED), ListedDetails.of(THOUSAND.subList(0, ListedDetails.MAX_LISTED)));
    }

    @Test
    void beyondTheMostLinesTheRestAreCountedOnTheLast() {
        List<String> listed = ListedDetails.of(THOUSAND);

        assertEquals(ListedDetails.MAX_LISTED, listed.size());
        assertEquals(THOUSAND.subList(0, ListedDetails.MAX_LISTED - 1), listed.subList(0, ListedDetails.MAX_LISTED - 1));
        assertEquals("request: " + (1000 - ListedDetails.MAX_LISTED + 1) + " more violations not listed", listed.getLast());
    }

    @Test
    void detailsNotGivenAreCountedFromTheTotal() {
        assertEquals(List.of("field0: is required", "request: 41 more violations not listed"),
                ListedDetails.of(THOUSAND.subList(0, 1), 42));
        assertEquals(ListedDetails.of(THOUSAND), ListedDetails.of(THOUSAND.subList(0, ListedDetails.MAX_LISTED), 1000));
        assertThrows(IllegalArgumentException.class, () -> ListedDetails.of(THOUSAND, 10));
    }

    @Test
    void listingAListingChangesNothing() {
        List<String> cutAndCounted = ListedDetails.of(List.of("url: " + "x".repeat(2000), "appid: is required"), 5000);

        assertEquals(ListedDetails.MAX_CHARS + 1, cutAndCounted.getFirst().length());
        assertEquals(cutAndCounted, ListedDetails.of(cutAndCounted));
        assertEquals(ListedDetails.of(THOUSAND), ListedDetails.of(ListedDetails.of(THOUSAND)));
    }
}
