package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LeaseHolderTest {

    @Test
    void holdersAreTheNodeIdAndASequenceNumber() {
        LeaseHolder holder = new LeaseHolder("6f1c2e9a0b11");
        assertEquals("6f1c2e9a0b11-1", holder.next());
        assertEquals("6f1c2e9a0b11-2", holder.next());
    }

    @Test
    void theGlobOfANodesLeaseIdsEscapesWhatRedisWouldReadAsAPattern() {
        assertEquals("*|6f1c2e9a0b11-*", new LeaseHolder("6f1c2e9a0b11").leaseIdGlob());
        assertEquals("*|a\\*b\\?c\\[d\\]e\\\\f\\^-*", new LeaseHolder("a*b?c[d]e\\f^").leaseIdGlob());
    }

    @Test
    void aNodeIdWithABarIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseHolder("a|b"));
        assertThrows(IllegalArgumentException.class, () -> new LeaseHolder(""));
    }
}
