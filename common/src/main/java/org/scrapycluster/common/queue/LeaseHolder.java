package org.scrapycluster.common.queue;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes the holder part of lease ids for one crawler node: the node id and a per-node sequence
 * number ({@code 6f1c2e9a0b11-1734}), unique for every hand-out of the node. Thread-safe.
 */
public final class LeaseHolder {

    private final String nodeId;
    private final AtomicLong sequence = new AtomicLong();

    /** @param nodeId the node's id (its uuid12); must not contain {@code |} */
    public LeaseHolder(String nodeId) {
        requireValid(nodeId);
        this.nodeId = nodeId;
    }

    /** A holder not used before by this node. */
    public String next() {
        return nodeId + "-" + sequence.incrementAndGet();
    }

    /**
     * A Redis glob ({@code MATCH}) for the ids of the leases this node's holders make, {@code <domain>|<score>|<holder>}:
     * {@code *|6f1c2e9a0b11-*}, the node id's glob characters escaped.
     */
    public String leaseIdGlob() {
        return "*|" + nodeId.replaceAll("([\\\\*?\\[\\]^])", "\\\\$1") + "-*";
    }

    static void requireValid(String holder) {
        if (holder.isEmpty() || holder.indexOf('|') >= 0) {
            throw new IllegalArgumentException("a lease holder must be non-empty and free of '|', got '" + holder + "'");
        }
    }
}
