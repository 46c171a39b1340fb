package org.scrapycluster.rest.live;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.SpiderCensus;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests every spider holds, queued or leased, as our services record them: the cluster's backlog whatever the
 * number of crawls, where the crawls table sums only the crawls it lists ({@code LIVE_MAX_CRAWLS}). A spider's queue
 * lengths are added up in Redis ({@code lua/spider_backlog.lua}), one call a spider, pipelined. Requests a Python Kafka
 * monitor or crawler queued behind the accounting's back are not in the recorded lengths, as in the Redis monitor's
 * backlog meter. A spider whose keys Redis refuses (of another type) is left out and logged once.
 */
final class SpiderBacklog {

    private static final Logger LOG = LoggerFactory.getLogger(SpiderBacklog.class);
    private static final LuaScript SUM = LuaScript.load("spider_backlog");

    private final RefusedKeys refused = new RefusedKeys(LOG, "The live view's backlog");

    /** The requests held by the spiders whose {@code <spiderid>:queue_lengths} keys are {@code lengthKeys}. */
    long read(RedisConnection redis, List<String> lengthKeys) {
        Map<String, CompletionStage<Long>> sums = new LinkedHashMap<>();
        for (String spider : SpiderCensus.spiders(lengthKeys, Keyspace.QUEUE_LENGTHS)) {
            String lengths = Keyspace.queueLengths(spider);
            sums.put(lengths, SUM.run(redis, ScriptOutputType.INTEGER, new String[] {lengths, Keyspace.leased(spider)}));
        }
        long total = 0;
        for (Map.Entry<String, CompletionStage<Long>> sum : sums.entrySet()) {
            total += refused.await(redis, sum.getKey(), sum.getValue()).orElse(0L);
        }
        return total;
    }
}
