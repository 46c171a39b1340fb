package org.scrapycluster.common.zookeeper;

/**
 * Reading or writing the domain config node failed. {@link #failure()} carries the message the
 * original Redis monitor puts in its answer's {@code error} field.
 */
public final class ZooKeeperConfigException extends Exception {

    /** Which half of a read-modify-write failed. */
    public enum Failure {
        LOAD("Unable to load Zookeeper config"),
        STORE("Unable to store Zookeeper config");

        private final String message;

        Failure(String message) {
            this.message = message;
        }

        /** The answer's {@code error} text, as the original sends it. */
        public String message() {
            return message;
        }
    }

    private final Failure failure;

    public ZooKeeperConfigException(Failure failure, String detail, Throwable cause) {
        super(failure.message() + ": " + detail, cause);
        this.failure = failure;
    }

    public Failure failure() {
        return failure;
    }
}
