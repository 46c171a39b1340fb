package org.scrapycluster.common.jobs;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Names of the Redis monitor's job keys (docs/architecture.md "Redis keyspace"), as the Kafka
 * monitor writes them and the Redis monitor reads them, and {@link #post posting} one.
 *
 * <p>A job key holds the latest request's value ({@code SET}, an overwrite, as the original writes
 * it, so a Python Redis monitor reads it unchanged). Beside it, {@link #waiting} lists every value
 * written since the job was last handled, so that a Java Redis monitor answers each request of the
 * same scope, not only the latest (docs/redis-monitor.md "Requests of the same scope"). The name
 * of each key written is pushed to {@link #SIGNAL}, a list every Redis monitor blocks on, so that
 * the job is picked up at once (docs/architecture.md "Jobs"). Job keys written without the signal
 * or the waiting list (by a Python Kafka monitor) are still found by the Redis monitors' periodic
 * scan and answered as the original answers them.
 */
public final class JobKeys {

    /** The LIST of job key names waiting to be picked up (additive to the original's keyspace). */
    public static final String SIGNAL = "jobs:signal";

    /**
     * How long a waiting list outlives its last write: a bound for lists whose job no Java Redis
     * monitor handles; a job handled later is answered as the original answers it (latest value only).
     */
    public static final Duration WAITING_EXPIRY = Duration.ofDays(1);

    /** The most values a waiting list keeps; older ones are dropped, so a flood of one scope stays bounded. */
    public static final int WAITING_KEPT = 1000;

    private static final LuaScript POST = LuaScript.load("post_job");

    private JobKeys() {
    }

    /** {@code info:<spiderid>:<appid>}: an app-level info request; its value is the request's uuid. */
    public static String info(String spiderId, String appid) {
        return "info:" + spiderId + ":" + appid;
    }

    /** {@code info:<spiderid>:<appid>:<crawlid>}: a crawl-level info request; its value is the uuid. */
    public static String info(String spiderId, String appid, String crawlid) {
        return info(spiderId, appid) + ":" + crawlid;
    }

    /**
     * {@code stop:<spiderid>:<appid>}: a stop request without crawlid, which the Redis monitor
     * answers with an error; its value is the uuid.
     */
    public static String stop(String spiderId, String appid) {
        return "stop:" + spiderId + ":" + appid;
    }

    /** {@code stop:<spiderid>:<appid>:<crawlid>}: a stop request; its value is the uuid. */
    public static String stop(String spiderId, String appid, String crawlid) {
        return stop(spiderId, appid) + ":" + crawlid;
    }

    /** {@code statsrequest:<stats>:<appid>}: a stats request of type {@code stats}; its value is the uuid. */
    public static String stats(String stats, String appid) {
        return "statsrequest:" + stats + ":" + appid;
    }

    /**
     * {@code zk:<action>:<domain>:<appid>}: a domain config edit; its value is the JSON
     * {@code {"domain","uuid"[,"hits","scale","window"]}}.
     */
    public static String zookeeper(String action, String domain, String appid) {
        return "zk:" + action + ":" + domain + ":" + appid;
    }

    /** {@code timeout:<spiderid>:<appid>:<crawlid>}: when a crawl expires, as an epoch in seconds. */
    public static String timeout(String spiderId, String appid, String crawlid) {
        return "timeout:" + spiderId + ":" + appid + ":" + crawlid;
    }

    /**
     * {@code jobs:<job key>:waiting}: the LIST of the values written to {@code jobKey} since it was
     * last handled, oldest first (additive to the original's keyspace; its name matches none of the
     * job patterns nor {@code *:*:queue}).
     */
    public static String waiting(String jobKey) {
        return "jobs:" + jobKey + ":waiting";
    }

    /**
     * Writes {@code value} to the job {@code key} and appends it to the job's waiting list, in one
     * atomic script call, without waiting; several calls in flight are pipelined.
     */
    public static CompletableFuture<Long> write(RedisConnection redis, String key, String value) {
        return POST.run(redis, ScriptOutputType.INTEGER, new String[] {key, waiting(key)}, value,
                Long.toString(WAITING_EXPIRY.toSeconds()), Integer.toString(WAITING_KEPT));
    }

    /**
     * {@link #write Writes} the job {@code key} with {@code value} and signals it, in one
     * pipeline, and waits until Redis has both.
     */
    public static void post(RedisConnection redis, String key, String value) {
        CompletableFuture<Long> written = write(redis, key, value);
        CompletableFuture<Long> signalled = redis.async().rpush(SIGNAL, key).toCompletableFuture();
        redis.await(written);
        redis.await(signalled);
    }
}
