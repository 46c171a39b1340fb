package org.scrapycluster.rest.http;

/**
 * Thrown by an endpoint or the router to refuse a request; the gateway answers it with the
 * refusal's status and envelope, {@code cause} as the envelope's {@code error.cause} when given.
 */
public class RefusedRequestException extends Exception {

    private static final long serialVersionUID = 1L;

    private final Refusal refusal;
    private final String detail;

    /**
     * @param refusal what kind of refusal
     * @param detail  the envelope's {@code cause}, or null for none
     */
    public RefusedRequestException(Refusal refusal, String detail) {
        super(detail == null ? refusal.message() : refusal.message() + " " + detail, null, false, false);
        this.refusal = refusal;
        this.detail = detail;
    }

    public Refusal refusal() {
        return refusal;
    }

    /** The envelope's {@code cause}, or null. */
    public String detail() {
        return detail;
    }
}
