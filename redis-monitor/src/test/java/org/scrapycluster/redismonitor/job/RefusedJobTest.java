package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * A job whose keys Redis refuses (its waiting list written by hand as another type) does not stop the job scan or
 * the signal listener: the jobs after it are still processed, at every scan.
 */
@ExtendWith(SharedStack.class)
class RefusedJobTest {

    private final String prefix = "refusedjob" + UUID.randomUUID().toString().replace("-", "");
    private JobTestBed bed;
    private RedisEndpoint endpoint;
    private JobScanner scanner;
    private final RecordingPlugin plugin = new RecordingPlugin(prefix + ":*:*");

    @BeforeEach
    void connect(EmbeddedStack stack) {
        bed = new JobTestBed(stack, prefix, 3);
        endpoint = RedisEndpoint.of("127.0.0.1", stack.redisPort());
        scanner = new JobScanner(bed.redis, List.of(plugin), bed.processor, Clock.systemUTC(), Duration.ofSeconds(1));
    }

    @AfterEach
    void close() {
        bed.deleteKeysContaining(prefix);
        bed.close();
    }

    @Test
    void aJobWhoseWaitingListRedisRefusesDoesNotStopTheOthers() throws Exception {
        String broken = prefix + ":app:broken";
        bed.redis.sync().set(broken, "uuid-broken");
        bed.redis.sync().hset(Keyspace.JOB_WAITING.fill(broken), "not", "a list");
        List<String> good = List.of(prefix + ":app:a", prefix + ":app:b", prefix + ":app:c");
        good.forEach(key -> bed.redis.sync().set(key, "uuid-" + key));

        scanner.scanOnce();
        scanner.scanOnce();

        assertEquals(Set.copyOf(good), plugin.handled);
        good.forEach(key -> assertEquals(0, bed.redis.sync().exists(key), key + " is done and deleted"));
        assertEquals(1, bed.redis.sync().exists(broken), "the refused job stays for its keys to be repaired");
    }

    @Test
    void aSignalledJobWhoseWaitingListRedisRefusesIsPassedOverWithoutAnOutage() throws Exception {
        String broken = prefix + ":app:broken";
        bed.redis.sync().set(broken, "uuid-broken");
        bed.redis.sync().hset(Keyspace.JOB_WAITING.fill(broken), "not", "a list");
        String good = prefix + ":app:good";
        bed.redis.sync().set(good, "uuid-good");
        bed.redis.sync().rpush(Keyspace.JOBS_SIGNAL, broken, good);

        try (JobSignalListener listener = new JobSignalListener(endpoint, List.of(plugin), bed.processor, bed.retries)) {
            for (int signals = 0; signals < 10 && !plugin.handled.contains(good); signals++) {
                listener.run(); // a Redis error here would be taken for an outage by its worker, which backs off
            }
        }

        assertEquals(Set.of(good), plugin.handled);
        assertEquals(1, bed.redis.sync().exists(broken), "the refused job stays for its keys to be repaired");
    }
}
