package org.scrapycluster.bench.throttle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import org.scrapycluster.bench.SpiderKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.HandOut;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.BatchedCalls;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;

/**
 * Measures throttle decisions per second from one process against one Redis: {@code concurrency}
 * hand-out calls kept in flight on one connection (pipelined), spread over many domains.
 *
 * <p>Three scenarios: <em>hand-out</em>, where limits are open so that nearly every decision
 * leases a request, one decision a call; <em>batched</em>, the same decisions gathered as a crawler node
 * gathers them ({@link BatchedCalls}: those asked for while a call is out go together in the next); and
 * <em>wait</em>, where each domain allows one hand-out per minute so that nearly every decision answers
 * WAIT. Seeding the queues through {@link Enqueuer} is measured too (the Kafka monitor's path). Everything runs under a fresh spider id whose keys are deleted at the
 * end, so any Redis can be used; prefer a dedicated one, since the figures are those of Redis.
 */
public final class ThrottleBenchmark {

    private static final int DOMAINS = 1_000;
    private static final int MAX_SEEDED = 1_200_000;
    private static final int SEEDED_PER_SECOND = 80_000;
    /** As many decisions in one call as a crawler node's scheduler asks for at most. */
    private static final int DECISIONS_PER_CALL = 64;
    private static final int SEED_BATCH = 5_000;

    private final RedisConnection redis;
    private final String spider = "bench" + UUID.randomUUID().toString().substring(0, 8);
    private final List<QueueKey> queues = new ArrayList<>();
    /** One for the whole run: the hand-out scenario's leases are still held while the wait scenario runs. */
    private final LeaseHolder holder = new LeaseHolder(spider);

    private ThrottleBenchmark(RedisConnection redis) {
        this.redis = redis;
        for (int i = 0; i < DOMAINS; i++) {
            queues.add(new QueueKey(spider, "d" + i + ".bench"));
        }
    }

    /**
     * What one scenario measured.
     *
     * @param scenario  its name
     * @param calls     calls answered (decisions, or requests filed for the seeding)
     * @param handedOut decisions that handed a request out
     * @param waits     decisions that answered WAIT
     * @param idle      decisions that decided nothing: an empty queue (the seeding used up), a paused domain
     * @param failures  calls that failed, and decisions a domain's error failed
     * @param elapsed   wall time
     */
    public record Result(String scenario, long calls, long handedOut, long waits, long idle, long failures, Duration elapsed) {

        /** The calls a second that did the work measured: all but those that decided nothing, which are cheaper. */
        public double perSecond() {
            return (calls - idle) / (elapsed.toNanos() / 1e9);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT,
                    "%-10s %,12.0f /s  (%,d calls in %.2f s: %,d handed out, %,d wait, %,d deciding nothing, %,d failed)",
                    scenario, perSecond(), calls, elapsed.toNanos() / 1e9, handedOut, waits, idle, failures);
        }
    }

    /** Runs the seeding, the hand-out, the batched and the wait scenarios, each for up to {@code duration}. */
    public static List<Result> run(RedisEndpoint endpoint, int concurrency, Duration duration) throws InterruptedException {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        try (RedisConnection redis = RedisConnection.open(endpoint)) {
            ThrottleBenchmark bench = new ThrottleBenchmark(redis);
            try {
                int items = (int) Math.min(MAX_SEEDED, SEEDED_PER_SECOND * Math.max(1, duration.toSeconds()));
                Result seeding = bench.seed(items);
                ThrottledQueue throttle = new ThrottledQueue(redis);
                Function<ThrottledQueue.Decision, CompletableFuture<HandOut>> oneByOne = throttle::decide;
                BatchedCalls<ThrottledQueue.Decision, HandOut> batched = new BatchedCalls<>(throttle::decideAll, DECISIONS_PER_CALL);
                // each scenario throttles under keys of its own (its name where a throttle key holds the public IP),
                // so that none counts the hand-outs of the one before
                Result handOut = bench.decide("hand-out", oneByOne,
                        queue -> new ThrottleSpec(Keyspace.throttleKey(bench.spider, null, queue.domain()), 60, 1_000_000, false), concurrency, duration);
                Result batchedHandOut = bench.decide("batched", batched::call,
                        queue -> new ThrottleSpec(Keyspace.throttleKey(bench.spider, "batched", queue.domain()), 60, 1_000_000, false), concurrency, duration);
                Result waiting = bench.decide("wait", oneByOne,
                        queue -> new ThrottleSpec(Keyspace.throttleKey(bench.spider, "slow", queue.domain()), 60, 1, false), concurrency, duration);
                return List.of(seeding, handOut, batchedHandOut, waiting);
            } finally {
                bench.cleanUp();
            }
        }
    }

    private Result seed(int items) {
        long started = System.nanoTime();
        long failures = 0;
        Enqueuer enqueuer = new Enqueuer(redis, false);
        for (int from = 0; from < items; from += SEED_BATCH) {
            List<EnqueueRequest> batch = new ArrayList<>(SEED_BATCH);
            for (int i = from; i < Math.min(items, from + SEED_BATCH); i++) {
                QueueKey queue = queues.get(i % DOMAINS);
                batch.add(EnqueueRequest.of(queue, String.format(Locale.ROOT, "{\"url\":\"https://%s/%d\",\"appid\":\"bench\","
                        + "\"crawlid\":\"c1\",\"spiderid\":\"%s\",\"priority\":%d,\"expires\":0}", queue.domain(), i, spider, i % 3)));
            }
            failures += enqueuer.enqueueBatch(batch).stream().filter(outcome -> outcome != EnqueueOutcome.QUEUED).count();
        }
        return new Result("enqueue", items, 0, 0, 0, failures, Duration.ofNanos(System.nanoTime() - started));
    }

    private Result decide(String scenario, Function<ThrottledQueue.Decision, CompletableFuture<HandOut>> decider,
                          Function<QueueKey, ThrottleSpec> specs, int concurrency, Duration duration) throws InterruptedException {
        List<ThrottleSpec> throttles = queues.stream().map(specs).toList();
        AtomicLong next = new AtomicLong();
        LongAdder calls = new LongAdder();
        LongAdder handedOut = new LongAdder();
        LongAdder waits = new LongAdder();
        LongAdder idle = new LongAdder();
        LongAdder failures = new LongAdder();
        CountDownLatch finished = new CountDownLatch(concurrency);
        long started = System.nanoTime();
        long deadline = started + duration.toNanos();
        Runnable[] chain = new Runnable[1];
        chain[0] = () -> {
            if (System.nanoTime() >= deadline) {
                finished.countDown();
                return;
            }
            int domain = (int) (next.getAndIncrement() % DOMAINS);
            decider.apply(ThrottledQueue.Decision.lease(queues.get(domain), throttles.get(domain), Duration.ofMinutes(10), holder.next()))
                    .whenComplete((answer, failure) -> {
                        if (failure != null) {
                            failures.increment();
                            finished.countDown();
                            return;
                        }
                        calls.increment();
                        switch (answer) {
                            case HandOut.HandedOut handed -> handedOut.increment();
                            case HandOut.Wait wait -> waits.increment();
                            case HandOut.Failed failed -> failures.increment();
                            default -> idle.increment();
                        }
                        chain[0].run();
                    });
        };
        for (int i = 0; i < concurrency; i++) {
            chain[0].run();
        }
        if (!finished.await(duration.toSeconds() + 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the " + scenario + " scenario did not finish");
        }
        return new Result(scenario, calls.sum(), handedOut.sum(), waits.sum(), idle.sum(), failures.sum(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    private void cleanUp() {
        SpiderKeys.delete(redis, spider);
        redis.sync().zrem(Keyspace.CRAWLS_ACTIVE, new CrawlRef(spider, "bench", "c1").name());
    }
}
