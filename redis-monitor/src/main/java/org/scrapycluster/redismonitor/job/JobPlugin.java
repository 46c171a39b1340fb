package org.scrapycluster.redismonitor.job;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A kind of job the Redis monitor runs (docs/compatibility.md §3.3): the job keys it owns, when a job is
 * due, what it does and what it answers. The monitor finds the keys, takes each key's lock, reads
 * the value, asks {@link #isDue}, calls {@link #handle}, sends the answers, and deletes the key;
 * when {@code handle} throws it counts the failure, and tells the requester through
 * {@link #errorAnswer} when it gives the job up.
 *
 * <p>A plugin is made by its {@link JobPluginFactory}, which the {@code PLUGINS} setting names. It is called from several threads at once (for
 * different keys) and must be thread-safe.
 */
public interface JobPlugin extends AutoCloseable {

    /** The name its statistics are counted under ({@code stats:redis-monitor:<name>:<window>}), e.g. {@code InfoMonitor}. */
    String name();

    /** The Redis glob of its job keys, e.g. {@code info:*:*}. */
    String pattern();

    /** Whether the job is to be handled now; a job that is not stays in Redis and is asked again later. */
    default boolean isDue(Job job, Instant now) {
        return true;
    }

    /**
     * Does the job.
     *
     * @return the messages to send on the outbound topic(s), in order (none for a job that answers nothing)
     * @throws RejectedJobException when the job cannot be done at all: it is answered with the error and deleted
     * @throws Exception            on any other failure: the job stays and is retried, up to {@code RETRY_FAILURES_MAX}
     */
    List<Answer> handle(Job job) throws Exception;

    /**
     * Whether the job's work depends on its key alone, its value being only the uuid of the request that its answers
     * carry in their {@code uuid} field (info, stats). The requests waiting on one key in one pass are then handled
     * once, and each is answered with the same answers under its own {@code uuid} (docs/redis-monitor.md "Requests of
     * the same scope"); otherwise (the default) each is handled on its own.
     */
    default boolean answersByKey() {
        return false;
    }

    /**
     * The message telling the requester that the job failed with {@code error}, or none when the
     * plugin answers nobody.
     */
    default Optional<Answer> errorAnswer(Job job, String error) {
        return Optional.empty();
    }

    /** Releases what the plugin holds (its ZooKeeper client, ...). */
    @Override
    default void close() {
    }
}
