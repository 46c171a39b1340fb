package org.scrapycluster.common.queue;

/** A queue member that is not a crawl request either shape can be read as; says why. */
public final class MalformedQueueMemberException extends Exception {

    private static final int SHOWN = 200;

    private final String raw;

    /**
     * @param reason what is wrong with the member
     * @param raw    the member as it was in Redis
     */
    public MalformedQueueMemberException(String reason, String raw) {
        super(reason + ": " + (raw.length() > SHOWN ? raw.substring(0, SHOWN) + "…" : raw));
        this.raw = raw;
    }

    /** The member exactly as it was in Redis. */
    public String raw() {
        return raw;
    }
}
