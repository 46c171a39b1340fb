package org.scrapycluster.redismonitor.job;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisLock;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.redismonitor.job.JobStats.Outcome;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one job key through its plugin (docs/compatibility.md §3.2): takes the key's lock without
 * waiting, reads the value, checks the plugin's precondition, counts the job, handles it, sends
 * the answers and waits for Kafka to take them, then deletes the key (only if it still holds the
 * value handled) and its failure count.
 *
 * <p>Any number of monitors may process the same key at once: one gets the lock; one that gets it
 * after the key was deleted reads nothing and skips it. So each job is answered once.
 *
 * <p>A failing job is logged with its stack trace, counted in the fail statistics and in
 * {@code lock:<key>:failures}, and retried; once given up it is deleted and the requester is told
 * with an {@code error} answer (the original dropped it silently). A job the plugin rejects is
 * answered with the error at once. An outage is not the job's fault: when Redis or Kafka is
 * unreachable the exception goes to the caller, which backs off, and the job stays as it is; the
 * answers of a job Kafka did not take are kept and sent on the next attempt rather than worked
 * out again (a stop's second purge would find nothing).
 */
public final class JobProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(JobProcessor.class);
    private static final LuaScript FINISH = LuaScript.load("redismonitor/finish_job");

    private final RedisConnection redis;
    private final RedisLocks locks;
    private final JobFailures failures;
    private final OutboundPublisher outbound;
    private final JobStats stats;
    private final Clock clock;
    private final Map<String, Unsent> unsent = new ConcurrentHashMap<>();

    public JobProcessor(RedisConnection redis, RedisLocks locks, JobFailures failures, OutboundPublisher outbound,
                        JobStats stats, Clock clock) {
        this.redis = redis;
        this.locks = locks;
        this.failures = failures;
        this.outbound = outbound;
        this.stats = stats;
        this.clock = clock;
    }

    /**
     * Processes the job at {@code key} with {@code plugin}.
     *
     * @throws RedisException               when Redis is unreachable (the job stays)
     * @throws OutboundUnavailableException when Kafka did not take the answers (the job stays)
     */
    public void process(JobPlugin plugin, String key) throws OutboundUnavailableException {
        Optional<RedisLock> lock = locks.tryAcquire(key);
        if (lock.isEmpty()) {
            return;
        }
        try (RedisLock held = lock.get()) {
            String value = redis.sync().get(key);
            if (value == null) {
                unsent.remove(key);
                return;
            }
            Job job = new Job(key, value);
            if (plugin.isDue(job, clock.instant())) {
                run(plugin, job);
            }
        }
    }

    private void run(JobPlugin plugin, Job job) throws OutboundUnavailableException {
        stats.started(plugin);
        long started = System.nanoTime();
        Unsent kept = unsent.remove(job.key());
        List<Answer> answers = kept != null && kept.value().equals(job.value()) ? kept.answers() : null;
        try {
            if (answers == null) {
                answers = plugin.handle(job);
            }
            outbound.publish(answers);
            finish(job);
            stats.ended(plugin, Outcome.ANSWERED, Duration.ofNanos(System.nanoTime() - started));
        } catch (OutboundUnavailableException e) {
            unsent.put(job.key(), new Unsent(job.value(), answers));
            throw e;
        } catch (RejectedJobException e) {
            LOG.atWarn().addKeyValue("key", job.key()).log("Rejected job {}: {}", job.key(), e.getMessage());
            giveUp(plugin, job, e.getMessage(), Outcome.REJECTED, started);
        } catch (RedisException e) {
            if (!(e instanceof RedisCommandExecutionException)) {
                throw e;
            }
            failed(plugin, job, e, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failed(plugin, job, e, started);
        }
    }

    private void failed(JobPlugin plugin, Job job, Exception failure, long started) {
        LOG.atError().setCause(failure).addKeyValue("key", job.key()).log("Job {} failed: {}", job.key(), failure.toString());
        if (!failures.failed(job.key())) {
            stats.ended(plugin, Outcome.FAILED, Duration.ofNanos(System.nanoTime() - started));
            return;
        }
        LOG.atError().addKeyValue("key", job.key()).log("Could not process action within failure limit");
        giveUp(plugin, job, "Could not process the request within the failure limit: " + describe(failure),
                Outcome.GIVEN_UP, started);
    }

    private void giveUp(JobPlugin plugin, Job job, String error, Outcome outcome, long started) {
        finish(job);
        stats.ended(plugin, outcome, Duration.ofNanos(System.nanoTime() - started));
        Optional<Answer> answer = plugin.errorAnswer(job, error);
        if (answer.isPresent()) {
            try {
                outbound.publish(List.of(answer.get()));
            } catch (OutboundUnavailableException e) {
                LOG.atWarn().addKeyValue("key", job.key()).log("Could not tell the requester of {} that it failed: {}",
                        job.key(), e.getMessage());
            }
        }
    }

    private void finish(Job job) {
        FINISH.<Long>call(redis, ScriptOutputType.INTEGER, new String[] {job.key(), JobFailures.key(job.key())}, job.value());
    }

    private static String describe(Exception failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }

    /** The answers of a handled job that Kafka did not take, and the value they answer. */
    private record Unsent(String value, List<Answer> answers) {
    }
}
