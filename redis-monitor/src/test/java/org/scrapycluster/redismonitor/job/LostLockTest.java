package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * A monitor that loses a job's lock while it handles the job (paused longer than {@code REDIS_LOCK_EXPIRATION},
 * or cut off from Redis across its renewals) while another monitor takes the job over: both answer the request
 * they both read, as two Python monitors would, and the requests written after the other monitor finished are
 * still each answered. A monitor that dies holding a job's lock leaves the job to the monitor that found it locked,
 * once the lock has expired.
 */
@ExtendWith(SharedStack.class)
class LostLockTest {

    private JobTestBed bed;
    private String key;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        bed = new JobTestBed(stack, "lostlock", 3);
        key = "pausetest:" + UUID.randomUUID() + ":job";
    }

    @AfterEach
    void close() {
        bed.redis.sync().del(key, Keyspace.JOB_WAITING.fill(key), Keyspace.JOB_ANSWERS.fill(key), Keyspace.lock(key));
        bed.close();
    }

    @Test
    void requestsWrittenAfterTheJobWasTakenOverAreEachAnswered() throws Exception {
        PausingPlugin plugin = new PausingPlugin();
        JobKeys.write(bed.redis, key, "v1").join();
        CompletableFuture<Void> paused = CompletableFuture.runAsync(() -> process(plugin));
        plugin.entered.await();

        bed.redis.sync().del(Keyspace.lock(key)); // its lock expires while the first monitor is paused
        process(plugin); // another monitor takes the job over, answers v1 and deletes the job
        JobKeys.write(bed.redis, key, "v2").join();
        JobKeys.write(bed.redis, key, "v3").join();
        plugin.resume.countDown();
        paused.get(1, TimeUnit.MINUTES);
        process(plugin); // the next monitor to handle the job

        assertEquals(List.of("v1", "v1", "v2", "v3"), bed.answered("uuid"),
                "v1 is answered by both monitors that ran it; v2 and v3, written after, are each answered once");
    }

    @Test
    void aJobWhoseMonitorDiedHoldingItsLockIsTakenUpByTheMonitorThatFoundItLockedOnceTheLockExpires() throws Exception {
        PausingPlugin plugin = new PausingPlugin();
        plugin.resume.countDown(); // it never pauses
        JobKeys.write(bed.redis, key, "v1").join();
        bed.redis.sync().set(Keyspace.lock(key), "the token of a monitor that died");

        process(plugin);
        assertEquals(List.of(), bed.retries.takeDue(), "not tried again before SLEEP_TIME");
        bed.clock.advance(Duration.ofSeconds(1));
        retryDue();
        assertEquals(List.of(), bed.answered("uuid"), "still locked");

        bed.redis.sync().del(Keyspace.lock(key)); // REDIS_LOCK_EXPIRATION passes
        bed.clock.advance(Duration.ofSeconds(1));
        retryDue();

        assertEquals(List.of("v1"), bed.answered("uuid"), "answered without waiting for a scan");
        assertEquals(List.of(), bed.retries.takeDue(), "and not tried again");
    }

    /** Processes the jobs due to be tried again, as the signal listener does between signals. */
    private void retryDue() throws Exception {
        List<Map.Entry<String, JobPlugin>> due = bed.retries.takeDue();
        assertEquals(List.of(key), due.stream().map(Map.Entry::getKey).toList());
        for (Map.Entry<String, JobPlugin> retry : due) {
            bed.processor.process(retry.getValue(), retry.getKey());
        }
    }

    private void process(JobPlugin plugin) {
        try {
            bed.processor.process(plugin, key);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Answers each request with its value as uuid; its first job stops until {@code resume}, as a paused monitor. */
    private static final class PausingPlugin implements JobPlugin {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        @Override
        public String name() {
            return "PausingPlugin";
        }

        @Override
        public String pattern() {
            return "pausetest:*:*";
        }

        @Override
        public List<Answer> handle(Job job) throws InterruptedException {
            if (entered.getCount() > 0) {
                entered.countDown();
                resume.await();
            }
            return List.of(new Answer("app", Map.of("uuid", job.value()), "Sent pausetest to kafka"));
        }
    }
}
