package org.scrapycluster.crawler.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

import org.scrapycluster.crawler.metrics.CacheCounts;

/**
 * A fixed number of slots, each holding one 64-bit number with the owner it was put for: the fingerprints a crawler node
 * remembers ({@link DupefilterMemory}). A number has one slot, picked by its high bits, so numbers must be spread
 * uniformly, as a digest's are. Putting a number into a slot that holds another replaces it (an eviction), as in a
 * direct-mapped processor cache: what stays is what was put last, and a look-up reads one slot, one memory access
 * where a map's look-up follows three or four references (docs/benchmarks.md, "The fingerprint memory in slots").
 *
 * <p>Safe for use by several threads without locks. A slot's number and owner are written one after the other, so a
 * reader may see the number of one put with the owner of another: a caller whose owner names what it looks for, as
 * {@code DupefilterMemory}'s entries name their dupefilter, is then misled only by two different keys whose numbers are
 * equal. Hits, misses, puts and evictions are counted for the node's cache metrics.
 *
 * @param <O> the owners
 */
public final class FingerprintTable<O> implements CacheCounts {

    private static final VarHandle NUMBERS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle OWNERS = MethodHandles.arrayElementVarHandle(Object[].class);

    private final long[] numbers;
    private final Object[] owners;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    /** A table of {@code slots} slots; 0 holds nothing. */
    FingerprintTable(int slots) {
        if (slots < 0) {
            throw new IllegalArgumentException("slots must not be negative: " + slots);
        }
        this.numbers = new long[slots];
        this.owners = new Object[slots];
    }

    /** The owner {@code number} was last put for, or null when its slot holds another number or none. */
    @SuppressWarnings("unchecked")
    O get(long number) {
        if (owners.length == 0) {
            return null;
        }
        int slot = slot(number);
        Object owner = OWNERS.getOpaque(owners, slot);
        if (owner != null && (long) NUMBERS.getOpaque(numbers, slot) == number) {
            hits.increment();
            return (O) owner;
        }
        misses.increment();
        return null;
    }

    /** Puts {@code number} for {@code owner} into its slot, in place of what the slot held. */
    void put(long number, O owner) {
        if (owners.length == 0) {
            return;
        }
        int slot = slot(number);
        Object held = OWNERS.getOpaque(owners, slot);
        if (held != null && (held != owner || (long) NUMBERS.getOpaque(numbers, slot) != number)) {
            evictions.increment();
        }
        NUMBERS.setOpaque(numbers, slot, number);
        OWNERS.setOpaque(owners, slot, owner);
        puts.increment();
    }

    /** Empties the slot of {@code number} when it holds that number. */
    void remove(long number) {
        if (owners.length == 0) {
            return;
        }
        int slot = slot(number);
        if ((long) NUMBERS.getOpaque(numbers, slot) == number) {
            OWNERS.setOpaque(owners, slot, null);
        }
    }

    /** The slots that hold a number: counted slot by slot, for a metrics scrape, not for a crawl's path. */
    @Override
    public long size() {
        long size = 0;
        for (int slot = 0; slot < owners.length; slot++) {
            if (OWNERS.getOpaque(owners, slot) != null) {
                size++;
            }
        }
        return size;
    }

    @Override
    public long hitCount() {
        return hits.sum();
    }

    @Override
    public long missCount() {
        return misses.sum();
    }

    @Override
    public long putCount() {
        return puts.sum();
    }

    @Override
    public long evictionCount() {
        return evictions.sum();
    }

    /** The slot of {@code number}: its high 32 bits scaled to the slots, a multiplication where a division would do. */
    private int slot(long number) {
        return (int) (((number >>> 32) * owners.length) >>> 32);
    }
}
