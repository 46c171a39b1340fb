package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class FingerprintTableTest {

    /** Numbers whose high 32 bits put them in slots 0 and 2 of a table of four, and one more for slot 0. */
    private static final long SLOT_0 = 0x0000_0001_1234_5678L;
    private static final long SLOT_2 = 0x8000_0000_0000_0001L;
    private static final long SLOT_0_AGAIN = 0x0000_0002_0000_0000L;

    private final FingerprintTable<String> table = new FingerprintTable<>(4);

    @Test
    void aNumberIsFoundWithTheOwnerItWasPutFor() {
        table.put(SLOT_0, "c1");
        table.put(SLOT_2, "c2");
        assertSame("c1", table.get(SLOT_0));
        assertSame("c2", table.get(SLOT_2));
        assertNull(table.get(SLOT_0 + 1), "another number in the same slot");
        assertEquals(2, table.size());
        assertEquals(2, table.hitCount());
        assertEquals(1, table.missCount());
        assertEquals(2, table.putCount());
        assertEquals(0, table.evictionCount());
    }

    @Test
    void aNumberTakesThePlaceOfTheOneInItsSlot() {
        table.put(SLOT_0, "c1");
        table.put(SLOT_0_AGAIN, "c1");
        assertNull(table.get(SLOT_0));
        assertSame("c1", table.get(SLOT_0_AGAIN));
        assertEquals(1, table.evictionCount());

        table.put(SLOT_0_AGAIN, "c2");
        assertSame("c2", table.get(SLOT_0_AGAIN));
        assertEquals(2, table.evictionCount(), "the same number put for another owner replaces that owner's");
        table.put(SLOT_0_AGAIN, "c2");
        assertEquals(2, table.evictionCount(), "putting what the slot holds evicts nothing");
        assertEquals(1, table.size());
    }

    @Test
    void removingEmptiesTheSlotOnlyOfThatNumber() {
        table.put(SLOT_0, "c1");
        table.remove(SLOT_0_AGAIN);
        assertSame("c1", table.get(SLOT_0), "another number's removal leaves the slot");
        table.remove(SLOT_0);
        assertNull(table.get(SLOT_0));
        assertEquals(0, table.size());
    }

    @Test
    void noSlotsHoldNothing() {
        FingerprintTable<String> none = new FingerprintTable<>(0);
        none.put(SLOT_0, "c1");
        assertNull(none.get(SLOT_0));
        none.remove(SLOT_0);
        assertEquals(0, none.size());
        assertEquals(0, none.putCount());
    }

    @Test
    void uniformNumbersSpreadOverEverySlot() {
        FingerprintTable<String> table = new FingerprintTable<>(1000);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            table.put(random.nextLong(), "c1");
        }
        assertEquals(1000, table.size(), "20,000 uniform numbers leave no slot of 1,000 empty");
    }
}
