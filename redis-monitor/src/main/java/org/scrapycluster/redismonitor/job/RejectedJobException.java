package org.scrapycluster.redismonitor.job;

/**
 * A job that cannot be done and would not succeed if tried again (a stop without crawlid, an
 * unknown stats type, a malformed key or value). It is answered at once with its message as the
 * answer's {@code error}, and deleted.
 */
public final class RejectedJobException extends RuntimeException {

    public RejectedJobException(String message) {
        super(message);
    }
}
