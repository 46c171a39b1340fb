package org.scrapycluster.common.metrics;

/** The state one health check reports: up or down, with a few words of detail (may be empty). */
public record Health(Status status, String detail) {

    /** Whether the checked thing works. */
    public enum Status {
        UP,
        DOWN
    }

    public Health {
        detail = detail == null ? "" : detail;
    }

    public static Health up() {
        return new Health(Status.UP, "");
    }

    public static Health up(String detail) {
        return new Health(Status.UP, detail);
    }

    public static Health down(String detail) {
        return new Health(Status.DOWN, detail);
    }

    /** A liveness check of a service's loop: up while {@code loop}'s thread runs, down once it has ended or before it started. */
    public static Health ofLoop(Thread loop) {
        return loop.isAlive() ? up(loop.getName() + " running") : down(loop.getName() + " is not running");
    }

    public boolean isUp() {
        return status == Status.UP;
    }
}
