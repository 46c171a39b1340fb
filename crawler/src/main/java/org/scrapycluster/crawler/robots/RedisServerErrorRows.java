package org.scrapycluster.crawler.robots;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * The rows of {@link ServerErrorRows} in Redis, one hash a host ({@code robots:server_errors:<origin>}, docs/architecture.md),
 * counted by {@code robots_error.lua} on Redis's clock, so that the nodes' clocks need not agree.
 */
public final class RedisServerErrorRows implements ServerErrorRows {

    private static final LuaScript COUNT = LuaScript.load("robots_error", "clock");
    private static final Verdict[] VERDICTS = Verdict.values();

    private final RedisConnection redis;
    private final String retryMillis;

    /** @param retry {@code ROBOTSTXT_RETRY_SECONDS}: how long after an error the file is asked again */
    public RedisServerErrorRows(RedisConnection redis, Duration retry) {
        this.redis = redis;
        this.retryMillis = Long.toString(Math.max(1, retry.toMillis()));
    }

    @Override
    public CompletableFuture<Row> count(String origin) {
        return COUNT.<List<Long>>run(redis, ScriptOutputType.MULTI, new String[] {Keyspace.ROBOTS_SERVER_ERRORS.fill(origin)},
                retryMillis, Integer.toString(RobotsCache.SERVER_ERRORS_TO_GIVE_UP))
                .thenApply(row -> new Row(row.get(0).intValue(), VERDICTS[row.get(1).intValue()]));
    }

    @Override
    public void end(String origin) {
        redis.async().del(Keyspace.ROBOTS_SERVER_ERRORS.fill(origin));
    }
}
