package org.scrapycluster.common.redis;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisCommandExecutionException;
import org.slf4j.Logger;

/**
 * Lets a periodic pass over many keys skip one that Redis refuses ({@link RedisErrors#isRefusal}: a key of the
 * wrong type or a value that is not a number, in a corrupted or hand-edited keyspace or written by a Python
 * component) and go on with the others, instead of stopping there at every pass while the log blames an outage
 * (docs/operations.md "Keys Redis refuses"). Says once that a key is refused and once that it is read again; costs
 * no Redis command.
 */
public final class RefusedKeys {

    private final Logger log;
    private final String activity;
    private final Set<String> refused = ConcurrentHashMap.newKeySet();

    /**
     * @param log      where to report
     * @param activity the pass, as the start of a sentence ("Measuring the queue backlog")
     */
    public RefusedKeys(Logger log, String activity) {
        this.log = log;
        this.activity = activity;
    }

    /**
     * Records that Redis refused what the pass asked of {@code key}; logs the first refusal of the key.
     *
     * @throws RedisCommandExecutionException {@code error} itself when it is no refusal but an outage
     */
    public void refused(String key, RedisCommandExecutionException error) {
        if (!RedisErrors.isRefusal(error)) {
            throw error;
        }
        if (refused.add(key)) {
            log.error("{} skips {}: Redis refuses it ({}); the other keys are read, and this one again once it is repaired",
                    activity, key, error.getMessage());
        }
    }

    /** What {@code pending} answers for {@code key}, or empty when Redis refuses the key (see {@link #refused}). */
    public <T> Optional<T> await(RedisConnection redis, String key, CompletionStage<T> pending) {
        return read(key, () -> redis.await(pending));
    }

    /**
     * What {@code read} gives for {@code key}: empty when Redis refuses the key (see {@link #refused}) or when
     * {@code read} gives null.
     *
     * @throws E what {@code read} throws besides a refusal
     */
    public <T, E extends Exception> Optional<T> read(String key, Read<T, E> read) throws E {
        try {
            T answer = read.run();
            answered(key);
            return Optional.ofNullable(answer);
        } catch (RedisCommandExecutionException e) {
            refused(key, e);
            return Optional.empty();
        }
    }

    /**
     * Runs what the pass does with {@code key}, unless Redis refuses the key (see {@link #refused}).
     *
     * @return whether Redis answered: false when it refused the key
     * @throws E what {@code work} throws besides a refusal
     */
    public <E extends Exception> boolean run(String key, Work<E> work) throws E {
        return read(key, () -> {
            work.run();
            return Boolean.TRUE;
        }).isPresent();
    }

    /** Records that Redis answered for {@code key}; logs when it refused it before. */
    public void answered(String key) {
        if (!refused.isEmpty() && refused.remove(key)) {
            log.info("{} reads {} again", activity, key);
        }
    }

    /** A read of the pass that may meet a refused key; it may throw {@code E} besides. */
    @FunctionalInterface
    public interface Read<T, E extends Exception> {
        T run() throws E;
    }

    /** Work of the pass on one key that may meet a refusal; it may throw {@code E} besides. */
    @FunctionalInterface
    public interface Work<E extends Exception> {
        void run() throws E;
    }
}
