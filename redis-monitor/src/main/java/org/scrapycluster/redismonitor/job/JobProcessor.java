package org.scrapycluster.redismonitor.job;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.OwnClassLoader;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.redis.RedisLock;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.service.Interrupts;
import org.scrapycluster.redismonitor.job.JobStats.Outcome;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one job key through its plugin (docs/compatibility.md §3.2): takes the key's lock without
 * waiting, reads the value and the job's waiting list, checks the plugin's precondition, counts
 * the job, handles it once for each request waiting (docs/redis-monitor.md "Requests of the same
 * scope"), sends the answers and waits for Kafka to take them, then takes the entries it read off
 * the waiting list and deletes the key (only if it holds a value answered and nothing newer
 * waits) and its failure count.
 *
 * <p>Any number of monitors may process the same key at once: one gets the lock, and the others note the job to be
 * tried again ({@link JobRetries}), so that a job whose monitor died holding its lock is taken up once the lock
 * expires rather than at the next scan; one that gets it after the key was deleted reads nothing and skips it. So
 * each request is answered once, unless a monitor loses the lock in the middle of a job (paused, or cut off from
 * Redis, for longer than {@code REDIS_LOCK_EXPIRATION}) and another takes the job over: then both answer the
 * requests they both read, as two of the original's monitors would. No check of the lock before sending could
 * prevent that, since the lock can expire between the check and the send; what matters is that the late monitor
 * takes off the waiting list only the entries it answered, so the requests written since are answered next.
 *
 * <p>A failing job (its plugin's precondition or handling threw an exception, or an error of its own code:
 * {@link ExtensionFailures}) is logged with its stack trace, counted in the fail statistics and in
 * {@code lock:<key>:failures}, and retried ({@link JobRetries}); once given up each requester is told with an {@code error}
 * answer (the original dropped it silently), and then it is deleted. A request the plugin rejects is
 * answered with the error at once. An outage is not the job's fault: when Redis or Kafka is
 * unreachable the exception goes to the caller, which backs off, and the job stays as it is; the
 * answers of a job Kafka did not take are kept in Redis ({@code jobs:<key>:answers}, one field a value)
 * and sent by whichever monitor handles the job next rather than worked out again (a stop's second
 * purge would find nothing).
 */
public final class JobProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(JobProcessor.class);
    private static final LuaScript FINISH = LuaScript.load("redismonitor/finish_job");
    /** How long answers Kafka did not take are kept for a job that no monitor finishes (one a Python monitor deleted). */
    private static final Duration KEPT_ANSWERS_TTL = Duration.ofDays(1);

    private final RedisConnection redis;
    private final RedisLocks locks;
    private final JobFailures failures;
    private final OutboundPublisher outbound;
    private final JobStats stats;
    private final Clock clock;
    private final JobRetries retries;

    /**
     * @param retries where a job that failed and was not given up, or whose lock another monitor held, is noted, to be
     *                tried again
     */
    public JobProcessor(RedisConnection redis, RedisLocks locks, JobFailures failures, OutboundPublisher outbound,
                        JobStats stats, Clock clock, JobRetries retries) {
        this.redis = redis;
        this.locks = locks;
        this.failures = failures;
        this.outbound = outbound;
        this.stats = stats;
        this.clock = clock;
        this.retries = retries;
    }

    /**
     * Processes the job at {@code key} with {@code plugin}.
     *
     * @throws RedisException               when Redis is unreachable or answers about itself (the job stays)
     * @throws OutboundUnavailableException when Kafka did not take the answers (the job stays)
     */
    public void process(JobPlugin plugin, String key) throws OutboundUnavailableException {
        Optional<RedisLock> lock = locks.tryAcquire(key);
        if (lock.isEmpty()) {
            retries.tryLater(plugin, key);
            return;
        }
        try (RedisLock held = lock.get()) {
            CompletableFuture<String> latest = redis.async().get(key).toCompletableFuture();
            CompletableFuture<List<String>> waiting = redis.async().lrange(Keyspace.JOB_WAITING.fill(key), 0, -1).toCompletableFuture();
            CompletableFuture<Map<String, String>> stored = redis.async().hgetall(Keyspace.JOB_ANSWERS.fill(key)).toCompletableFuture();
            String value = Job.value(redis, latest);
            List<String> waited = redis.await(waiting);
            Map<String, String> unsent = redis.await(stored);
            if (value == null) {
                return;
            }
            Waiters waiters = new Waiters(key, waited, value);
            boolean due;
            try {
                due = plugin.isDue(new Job(key, value), clock.instant());
            } catch (Throwable e) {
                ExtensionFailures.rethrowIfFatal(e);
                failed(plugin, waiters, e, System.nanoTime());
                return;
            }
            if (due) {
                run(plugin, waiters, unsent);
            }
        }
    }

    /**
     * Whether the scan should process {@code job} of {@code plugin}: its precondition, or true when that throws, so that
     * {@link #process} counts the failure against the job instead of the scan stopping at it.
     */
    public static boolean mayBeDue(JobPlugin plugin, Job job, Instant now) {
        try {
            return plugin.isDue(job, now);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            return true;
        }
    }

    private void run(JobPlugin plugin, Waiters waiters, Map<String, String> unsent) throws OutboundUnavailableException {
        if (!unsent.keySet().containsAll(waiters.values())) {
            // answers kept through a Kafka outage are sent again, not handled: the job was counted when it was
            stats.started(plugin);
        }
        long started = System.nanoTime();
        Handled handled = null;
        try {
            handled = handleEach(plugin, waiters, unsent);
            outbound.publish(handled.answers());
            finishAnswered(waiters);
            stats.ended(plugin, handled.allRejected() ? Outcome.REJECTED : Outcome.ANSWERED, Duration.ofNanos(System.nanoTime() - started));
        } catch (RecordTooLargeException | RecordBatchTooLargeException refused) {
            // an answer larger than Kafka takes: the next attempt would work it out again only to be refused again, so
            // the job is given up at once and its requesters told why (a failure to tell them leaves the job, and
            // goes to the caller, not to the catch below: no answer of the job was sent)
            LOG.atError().addKeyValue("key", waiters.key()).addKeyValue("plugin", plugin.name()).addKeyValue("error", refused.getMessage())
                    .log("Kafka refused the answers of job {} as too large; giving it up", waiters.key());
            giveUp(plugin, waiters, "Kafka refused the answer as too large (KAFKA_PRODUCER_MAX_REQUEST_SIZE bounds it before "
                    + "compression, the topic's max.message.bytes after): "
                    + describe(refused), started);
        } catch (OutboundUnavailableException e) {
            if (handled != null) {
                keep(waiters.key(), handled.notTaken(e.taken()));
            }
            throw e;
        } catch (RedisException e) {
            // a refusal of the job's keys counts against it; a server loading, busy or read-only is an outage to wait out
            if (!RedisErrors.isRefusal(e)) {
                throw e;
            }
            failed(plugin, waiters, e, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            failed(plugin, waiters, e, started);
        }
    }

    /**
     * Handles the job once for each value waiting, in the order written; a value the plugin
     * rejects is answered with its error, and the others are handled all the same. When the plugin
     * {@linkplain JobPlugin#answersByKey answers by key} it is handled once, for the first value, and the others get
     * those answers under their own uuid, as fresh as the first's since they come from the same pass. A value whose answers
     * were worked out before but not sent ({@code unsent}, from {@code jobs:<key>:answers}) is not handled
     * again: its answers are sent as they were.
     */
    private Handled handleEach(JobPlugin plugin, Waiters waiters, Map<String, String> unsent) throws Exception {
        Map<String, List<Answer>> byValue = new LinkedHashMap<>();
        List<Answer> byKey = null;
        int rejected = 0;
        for (Job job : waiters.jobs()) {
            List<Answer> kept = unsent.containsKey(job.value()) ? StoredAnswers.decode(unsent.get(job.value())) : null;
            if (kept != null) {
                byValue.put(job.value(), kept);
                continue;
            }
            if (byKey != null) {
                // the plugin said the first "Received"; each request of the scope is said, as each is answered
                LOG.atInfo().addKeyValue("key", job.key()).addKeyValue("uuid", job.value())
                        .log("Received a request of the same scope in this pass; it gets the answers worked out for the first");
                byValue.put(job.value(), byKey.stream().map(answer -> answer.forRequest(job.value())).toList());
                continue;
            }
            try {
                List<Answer> answers = OwnClassLoader.call(plugin, () -> plugin.handle(job));
                if (answers == null) {
                    throw new IllegalStateException("the plugin " + plugin.name() + " returned no answers (null) from handle; "
                            + "it returns an empty list to answer nothing");
                }
                byValue.put(job.value(), answers);
                if (plugin.answersByKey()) {
                    byKey = answers;
                }
            } catch (RejectedJobException e) {
                LOG.atWarn().addKeyValue("key", job.key()).log("Rejected job {}: {}", job.key(), e.getMessage());
                byValue.put(job.value(), plugin.errorAnswer(job, e.getMessage()).stream().toList());
                rejected++;
            }
        }
        return new Handled(byValue, rejected == waiters.values().size());
    }

    /**
     * Counts a failure of the job; once it is given up, tells its requesters, then deletes it.
     *
     * @throws OutboundUnavailableException when Kafka did not take the error answers of a job given up in time: the job
     *                                      stays with its count, and the next attempt runs it once more: answered
     *                                      then, or given up again at once and its requesters told (error answers
     *                                      Kafka refuses for good are logged, and the job deleted)
     */
    private void failed(JobPlugin plugin, Waiters waiters, Throwable failure, long started) throws OutboundUnavailableException {
        String key = waiters.key();
        LOG.atError().setCause(failure).addKeyValue("key", key).addKeyValue("plugin", plugin.name())
                .log("Job {} of the plugin {} failed: {}", key, plugin.name(), ExtensionFailures.described(failure));
        if (!failures.failed(key)) {
            retries.tryLater(plugin, key);
            stats.ended(plugin, Outcome.FAILED, Duration.ofNanos(System.nanoTime() - started));
            return;
        }
        LOG.atError().addKeyValue("key", key).log("Could not process action within failure limit");
        giveUp(plugin, waiters, "Could not process the request within the failure limit: " + describe(failure), started);
    }

    /**
     * Tells the requesters of a job given up of {@code error}, then deletes the job.
     *
     * @throws OutboundUnavailableException when Kafka did not take the error answers in time: the job stays
     */
    private void giveUp(JobPlugin plugin, Waiters waiters, String error, long started) throws OutboundUnavailableException {
        String key = waiters.key();
        try {
            outbound.publish(errorAnswers(plugin, waiters, error));
        } catch (KafkaException e) {
            // refused for good (an answer that repeats a huge field of its request is too large, like the answer that
            // failed): no attempt would be told otherwise, so the job is deleted all the same
            LOG.atError().addKeyValue("key", key).addKeyValue("error", e.getMessage())
                    .log("Kafka refused the error answers of a job given up; its requesters are not told");
        }
        finishAnswered(waiters);
        stats.ended(plugin, Outcome.GIVEN_UP, Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * The answers telling the requesters of a job given up of {@code error}; none when the plugin fails to word them
     * (logged), so that the job is deleted all the same rather than given up again at every attempt.
     */
    private static List<Answer> errorAnswers(JobPlugin plugin, Waiters waiters, String error) {
        try {
            return waiters.jobs().stream().flatMap(job -> plugin.errorAnswer(job, error).stream()).toList();
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            LOG.atError().addKeyValue("key", waiters.key()).setCause(e).log("The plugin failed to word the error answers of a job given up; "
                    + "its requesters are not told");
            return List.of();
        }
    }

    /**
     * Keeps the answers Kafka did not take ({@code jobs:<key>:answers}), for whichever monitor handles the job next;
     * a value whose answers Kafka all took is kept with none, so that it is not handled again. Written even while a
     * stop interrupts this thread, which would make Redis commands fail at once.
     */
    private void keep(String key, Map<String, List<Answer>> byValue) {
        String kept = Keyspace.JOB_ANSWERS.fill(key);
        Interrupts.putAside(() -> {
            redis.sync().hset(kept, StoredAnswers.encode(byValue));
            redis.sync().expire(kept, KEPT_ANSWERS_TTL.toSeconds());
        });
    }

    /**
     * Ends a job whose answers Kafka took. Were Redis to go away now, the job would stay, to be handled again and its
     * requesters answered twice (a stop's second purge answering 0 purged): the end is tried again, after a back-off,
     * while the job's lock is still held (and renewed once Redis is back), until Redis takes it or the monitor stops.
     * A stop that interrupts this thread meanwhile does not keep it from ending the job.
     */
    private void finishAnswered(Waiters waiters) {
        try {
            Interrupts.putAside(() -> finish(waiters));
        } catch (RedisException e) {
            if (RedisErrors.isRefusal(e)) {
                throw e;
            }
            LOG.atWarn().addKeyValue("key", waiters.key()).addKeyValue("error", e.getMessage())
                    .log("Kafka took the answers of job {}, but Redis did not take its end; ending it once Redis is back, "
                            + "so that its requests are not answered again", waiters.key());
            finishOnceRedisIsBack(waiters, e);
        }
    }

    /** Tries the end of a job Redis did not take again, after a back-off each time, until Redis takes it or a stop. */
    private void finishOnceRedisIsBack(Waiters waiters, RedisException failed) {
        Backoff backoff = Backoff.standard();
        RedisException last = failed;
        while (true) {
            try {
                Worker.idle(backoff::pause);
            } catch (InterruptedException stopping) {
                LOG.atWarn().addKeyValue("key", waiters.key())
                        .log("The monitor stopped before Redis took the end of job {}; its requests will be answered again",
                                waiters.key());
                Thread.currentThread().interrupt();
                throw last;
            }
            try {
                Interrupts.putAside(() -> finish(waiters));
                LOG.atInfo().addKeyValue("key", waiters.key()).log("Job {} ended now that Redis is back", waiters.key());
                return;
            } catch (RedisException e) {
                if (RedisErrors.isRefusal(e)) {
                    throw e;
                }
                last = e;
            }
        }
    }

    private void finish(Waiters waiters) {
        List<String> args = new ArrayList<>(1 + waiters.listed().size() + waiters.values().size());
        args.add(Integer.toString(waiters.listed().size()));
        args.addAll(waiters.listed());
        args.addAll(waiters.values());
        FINISH.<Long>call(redis, ScriptOutputType.INTEGER, new String[] {waiters.key(), JobFailures.key(waiters.key()),
                Keyspace.JOB_WAITING.fill(waiters.key()), Keyspace.JOB_ANSWERS.fill(waiters.key())}, args.toArray(String[]::new));
    }

    private static String describe(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }

    /** The answers of each of a job's values, in order, and whether the plugin rejected every one. */
    private record Handled(Map<String, List<Answer>> byValue, boolean allRejected) {

        List<Answer> answers() {
            return byValue.values().stream().flatMap(List::stream).toList();
        }

        /** Each value's answers but those at the positions {@code taken} of {@link #answers()}. */
        Map<String, List<Answer>> notTaken(Set<Integer> taken) {
            Map<String, List<Answer>> left = new LinkedHashMap<>();
            int position = 0;
            for (Map.Entry<String, List<Answer>> value : byValue.entrySet()) {
                List<Answer> kept = new ArrayList<>();
                for (Answer answer : value.getValue()) {
                    if (!taken.contains(position++)) {
                        kept.add(answer);
                    }
                }
                left.put(value.getKey(), kept);
            }
            return left;
        }
    }
}
