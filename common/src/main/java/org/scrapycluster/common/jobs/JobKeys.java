package org.scrapycluster.common.jobs;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.redis.RedisConnection;

/**
 * Names of the Redis monitor's job keys (docs/compatibility.md §1A, §2.5), as the Kafka monitor writes
 * them and the Redis monitor reads them, and {@link #post posting} one: the key is written with
 * {@code SET} (an overwrite, as in the original), then its name is pushed to {@link #SIGNAL}, a
 * list every Redis monitor blocks on, so that the job is picked up at once
 * (docs/architecture.md "Jobs"). Job keys written without the signal (by a Python Kafka monitor)
 * are still found by the Redis monitors' periodic scan.
 */
public final class JobKeys {

    /** The LIST of job key names waiting to be picked up (additive to the original's keyspace). */
    public static final String SIGNAL = "jobs:signal";

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

    /** {@code stop:<spiderid>:<appid>:<crawlid>}: a stop request; its value is the uuid. */
    public static String stop(String spiderId, String appid, String crawlid) {
        return "stop:" + spiderId + ":" + appid + ":" + crawlid;
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

    /**
     * Writes the job {@code key} with {@code value} and signals it, in one pipeline, and waits
     * until Redis has both.
     */
    public static void post(RedisConnection redis, String key, String value) {
        CompletableFuture<String> written = redis.async().set(key, value).toCompletableFuture();
        CompletableFuture<Long> signalled = redis.async().rpush(SIGNAL, key).toCompletableFuture();
        redis.await(written);
        redis.await(signalled);
    }
}
