package org.scrapycluster.crawler.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import org.scrapycluster.crawler.metrics.CacheCounts;

/**
 * A fixed number of slots, each holding one 64-bit number with the owner it was put for: the fingerprints a crawler node
 * remembers ({@link DupefilterMemory}). The slots are in sets of {@value #WAYS}, and a number may be in any slot of one
 * set, picked by its high bits, so numbers must be spread uniformly, as a digest's are. A number put into a full set
 * takes the place of one of its numbers picked at random (an eviction), as in a set-associative processor cache: with
 * a set rather than a single slot, numbers that meet do not keep taking each other's place (one slot each made a crawl
 * call Redis for half again as many pages). A look-up reads the numbers of one set, one memory access where a map's
 * look-up follows three or four references (docs/cpu-per-page.md, "The fingerprint memory in slots").
 *
 * <p>Safe for use by several threads without locks. A slot's number and owner are written one after the other, so a
 * reader may see the number of one put with the owner of another: a caller whose owner names what it looks for, as
 * {@code DupefilterMemory}'s entries name their dupefilter, is then misled only by two different keys whose numbers are
 * equal. Puts and evictions are counted for the node's cache metrics, and look-ups as their callers count them
 * ({@link #count}), a page's at once: counters that every worker thread added to on each look-up took 6% of the workers'
 * time (docs/cpu-per-page.md, "Counted by the page, measured past the JIT").
 *
 * @param <O> the owners
 */
public final class FingerprintTable<O> implements CacheCounts {

    private static final VarHandle NUMBERS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle OWNERS = MethodHandles.arrayElementVarHandle(Object[].class);
    /** Slots in a set: a number may be in any of its set's, 32 bytes of numbers read together. */
    static final int WAYS = 4;

    private final long[] numbers;
    private final Object[] owners;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    /** A table of at least {@code slots} slots, in sets of {@value #WAYS}; 0 holds nothing. */
    FingerprintTable(int slots) {
        if (slots < 0) {
            throw new IllegalArgumentException("slots must not be negative: " + slots);
        }
        int sets = (int) ((slots + (long) WAYS - 1) / WAYS);
        this.numbers = new long[sets * WAYS];
        this.owners = new Object[sets * WAYS];
    }

    /** The owner {@code number} was last put for, or null when its set holds it no more, or never did; not counted. */
    @SuppressWarnings("unchecked")
    O get(long number) {
        int slot = find(number);
        return slot < 0 ? null : (O) OWNERS.getOpaque(owners, slot);
    }

    /** Adds look-ups to the counts the metrics report: {@code hits} that found what they looked for, {@code misses} that did not. */
    void count(int hits, int misses) {
        if (hits > 0) {
            this.hits.add(hits);
        }
        if (misses > 0) {
            this.misses.add(misses);
        }
    }

    /**
     * Puts {@code number} for {@code owner} into its set: where the set holds it already, else into a free slot, else in
     * place of one picked at random (an eviction), so that numbers that share a set do not keep taking each other's place.
     */
    void put(long number, O owner) {
        if (owners.length == 0) {
            return;
        }
        int first = set(number);
        int slot = -1;   // where it goes: the slot that holds it, else the set's first free slot
        for (int candidate = first; candidate < first + WAYS; candidate++) {
            if (OWNERS.getOpaque(owners, candidate) == null) {
                if (slot < 0) {
                    slot = candidate;
                }
            } else if ((long) NUMBERS.getOpaque(numbers, candidate) == number) {
                slot = candidate;
                break;
            }
        }
        if (slot < 0) {
            slot = first + ThreadLocalRandom.current().nextInt(WAYS);
            evictions.increment();
        }
        NUMBERS.setOpaque(numbers, slot, number);
        OWNERS.setOpaque(owners, slot, owner);
        puts.increment();
    }

    /** Empties the slot of {@code number}, if its set holds it. */
    void remove(long number) {
        int slot = find(number);
        if (slot >= 0) {
            OWNERS.setOpaque(owners, slot, null);
        }
    }

    /** The slot of {@code number} in its set, or -1 when the set does not hold it. */
    private int find(long number) {
        if (owners.length == 0) {
            return -1;
        }
        int first = set(number);
        for (int slot = first; slot < first + WAYS; slot++) {
            if ((long) NUMBERS.getOpaque(numbers, slot) == number && OWNERS.getOpaque(owners, slot) != null) {
                return slot;
            }
        }
        return -1;
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

    /** The first slot of {@code number}'s set: its high 32 bits scaled to the sets, a multiplication where a division would do. */
    private int set(long number) {
        return (int) (((number >>> 32) * (owners.length / WAYS)) >>> 32) * WAYS;
    }
}
