package org.scrapycluster.common.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;

/**
 * Threads asking for hand-outs from one domain queue as fast as the throttle lets them, recording
 * the server time of every hand-out. Runs inside a test or, through {@link #main}, as a second JVM
 * that prints {@value #READY} once connected, then one hand-out time (epoch microseconds) per line.
 */
final class ThrottleHammer {

    /** The first line {@link #main} prints, once it is connected and about to start. */
    static final String READY = "ready";

    /** Longest sleep between asks: a short poll keeps late wake-ups from wasting free slots. */
    private static final long POLL_MILLIS = 20;

    private ThrottleHammer() {
    }

    /** Args: redis port, spider, domain, throttle key, window seconds, limit, moderated, threads, millis. */
    public static void main(String[] args) throws Exception {
        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", Integer.parseInt(args[0])))) {
            System.out.println(READY);
            System.out.flush();
            List<Instant> handedOut = hammer(redis, new QueueKey(args[1], args[2]),
                    new ThrottleSpec(args[3], Double.parseDouble(args[4]), Integer.parseInt(args[5]), Boolean.parseBoolean(args[6])),
                    Integer.parseInt(args[7]), Duration.ofMillis(Long.parseLong(args[8])));
            for (Instant at : handedOut) {
                System.out.println(micros(at));
            }
        }
    }

    static long micros(Instant at) {
        return at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
    }

    /** Hands out from {@code queue} with {@code threads} threads for {@code duration}; the hand-out times. */
    static List<Instant> hammer(RedisConnection redis, QueueKey queue, ThrottleSpec spec, int threads, Duration duration)
            throws InterruptedException {
        ThrottledQueue throttle = new ThrottledQueue(redis);
        LeaseHolder holder = new LeaseHolder(UUID.randomUUID().toString().substring(24));
        List<Instant> handedOut = Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + duration.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            workers.add(Thread.ofPlatform().start(() -> {
                while (System.nanoTime() < deadline) {
                    long pause = POLL_MILLIS;
                    try {
                        HandOut answer = throttle.handOut(queue, spec, Duration.ofMinutes(10), holder.next());
                        if (answer instanceof HandOut.HandedOut out) {
                            handedOut.add(out.at());
                            pause = 0;
                        } else if (answer instanceof HandOut.Wait wait) {
                            pause = Math.min(wait.delay().toMillis(), POLL_MILLIS);
                        }
                    } catch (RedisException e) {
                        pause = POLL_MILLIS;
                    }
                    sleep(pause);
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return new ArrayList<>(handedOut);
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
