package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

class FingerprintTableTest {

    /** In a table of two sets, numbers whose high bit is 0 are in the first set, the others in the second. */
    private static final long FIRST_SET = 0x0000_0001_1234_5678L;
    private static final long SECOND_SET = 0x8000_0000_0000_0001L;

    private final FingerprintTable<String> table = new FingerprintTable<>(2 * FingerprintTable.WAYS);

    /** {@code count} numbers of the first set. */
    private static List<Long> firstSet(int count) {
        return LongStream.rangeClosed(1, count).map(i -> i << 32).boxed().toList();
    }

    @Test
    void aNumberIsFoundWithTheOwnerItWasPutFor() {
        table.put(FIRST_SET, "c1");
        table.put(SECOND_SET, "c2");
        assertSame("c1", table.get(FIRST_SET));
        assertSame("c2", table.get(SECOND_SET));
        assertNull(table.get(FIRST_SET + 1), "another number of the same set");
        assertEquals(2, table.size());
        assertEquals(2, table.putCount());
        assertEquals(0, table.evictionCount());
    }

    @Test
    void numbersThatShareASetAreAllHeldWhileItHasRoom() {
        firstSet(FingerprintTable.WAYS).forEach(number -> table.put(number, "c1"));
        firstSet(FingerprintTable.WAYS).forEach(number -> assertSame("c1", table.get(number), Long.toHexString(number)));
        assertEquals(0, table.evictionCount());
    }

    @Test
    void aNumberPutIntoAFullSetTakesThePlaceOfOneOfItsNumbers() {
        List<Long> numbers = firstSet(FingerprintTable.WAYS + 1);
        numbers.forEach(number -> table.put(number, "c1"));
        assertSame("c1", table.get(numbers.getLast()), "the newest is held");
        assertEquals(FingerprintTable.WAYS - 1, numbers.subList(0, FingerprintTable.WAYS).stream().filter(n -> table.get(n) != null).count());
        assertEquals(1, table.evictionCount());
        assertEquals(FingerprintTable.WAYS, table.size());
    }

    @Test
    void theSameNumberPutForAnotherOwnerChangesItsOwnerInItsSlot() {
        table.put(FIRST_SET, "c1");
        table.put(FIRST_SET, "c2");
        assertSame("c2", table.get(FIRST_SET));
        assertEquals(1, table.size());
        assertEquals(0, table.evictionCount());
    }

    @Test
    void aNumberHeldBehindAFreeSlotIsPutAgainInItsOwnSlot() {
        List<Long> numbers = firstSet(2);
        table.put(numbers.get(0), "c1");
        table.put(numbers.get(1), "c1");
        table.remove(numbers.get(0));
        table.put(numbers.get(1), "c2");
        assertEquals(1, table.size(), "the number is in one slot, not in the free one too");
        assertSame("c2", table.get(numbers.get(1)));
        table.remove(numbers.get(1));
        assertNull(table.get(numbers.get(1)));
    }

    @Test
    void removingEmptiesTheSlotOnlyOfThatNumber() {
        table.put(FIRST_SET, "c1");
        table.remove(FIRST_SET + 1);
        assertSame("c1", table.get(FIRST_SET), "another number's removal leaves it");
        table.remove(FIRST_SET);
        assertNull(table.get(FIRST_SET));
        assertEquals(0, table.size());
    }

    @Test
    void noSlotsHoldNothing() {
        FingerprintTable<String> none = new FingerprintTable<>(0);
        none.put(FIRST_SET, "c1");
        assertNull(none.get(FIRST_SET));
        none.remove(FIRST_SET);
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
