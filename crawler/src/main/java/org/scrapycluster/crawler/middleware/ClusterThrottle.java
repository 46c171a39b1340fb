package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;

/** A domain's throttle as every node shares it in Redis, as the middlewares use it: paused, and its hand-outs read. */
public interface ClusterThrottle {

    /**
     * Pauses every hand-out under {@code throttle}, on every node, for {@code pause}, unless a pause as long or longer is
     * in force.
     *
     * @return whether the pause was set or lengthened
     */
    CompletableFuture<Boolean> pause(ThrottleSpec throttle, Duration pause);

    /**
     * The latest hand-out under {@code throttle} before the one made at {@code handedOut}, empty when there is none; the
     * hand-outs are kept at least {@code keep} from now, for the next to be checked against.
     */
    CompletableFuture<Optional<Instant>> handOutBefore(ThrottleSpec throttle, Instant handedOut, Duration keep);

    /**
     * Counts the hand-out made at {@code handedOut} under {@code throttle} from now, its request going out after a wait:
     * true when it may go, false when the window, counted so, is over its limit and it is to be put back
     * ({@link ThrottledQueue#countFromFetch}).
     */
    CompletableFuture<Boolean> countFromFetch(ThrottleSpec throttle, Instant handedOut);

    /** The throttles {@code queue} hands out under. */
    static ClusterThrottle of(ThrottledQueue queue) {
        return new ClusterThrottle() {
            @Override
            public CompletableFuture<Boolean> pause(ThrottleSpec throttle, Duration pause) {
                return queue.pauseAsync(throttle, pause);
            }

            @Override
            public CompletableFuture<Optional<Instant>> handOutBefore(ThrottleSpec throttle, Instant handedOut, Duration keep) {
                return queue.handOutBefore(throttle, handedOut, keep);
            }

            @Override
            public CompletableFuture<Boolean> countFromFetch(ThrottleSpec throttle, Instant handedOut) {
                return queue.countFromFetch(throttle, handedOut);
            }
        };
    }
}
