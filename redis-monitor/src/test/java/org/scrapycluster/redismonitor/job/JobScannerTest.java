package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * Each plugin is handed the job keys of its pattern and no other, whether the scan is one pass by type (Redis 6.0 and
 * newer) or a {@code SCAN MATCH} of each plugin's pattern (older servers).
 */
@ExtendWith(SharedStack.class)
class JobScannerTest {

    private final String prefix = "jobscan" + UUID.randomUUID().toString().replace("-", "");
    private JobTestBed bed;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        bed = new JobTestBed(stack, prefix, 3);
    }

    @AfterEach
    void close() {
        bed.deleteKeysContaining(prefix);
        bed.close();
    }

    @ParameterizedTest(name = "scan by type: {0}")
    @ValueSource(booleans = {true, false})
    void eachPluginIsHandedTheJobsOfItsPattern(boolean byType) throws Exception {
        RecordingPlugin info = new RecordingPlugin(prefix + ":info:*");
        RecordingPlugin stop = new RecordingPlugin(prefix + ":stop:*:*");
        List<String> infoJobs = List.of(prefix + ":info:app1", prefix + ":info:app2");
        List<String> stopJobs = List.of(prefix + ":stop:app1:crawl1");
        infoJobs.forEach(key -> bed.redis.sync().set(key, "uuid-" + key));
        stopJobs.forEach(key -> bed.redis.sync().set(key, "uuid-" + key));
        bed.redis.sync().set(prefix + ":stop:app1", "not of the stop pattern");
        bed.redis.sync().zadd(prefix + ":queue", 1, "not a job");

        new JobScanner(bed.redis, List.of(info, stop), bed.processor, Clock.systemUTC(), Duration.ofSeconds(1), byType).scanOnce();

        assertEquals(Set.copyOf(infoJobs), info.handled);
        assertEquals(Set.copyOf(stopJobs), stop.handled);
    }

    /** Handles the jobs of its pattern, answering nothing, and remembers their keys. */
    private static final class RecordingPlugin implements JobPlugin {

        final Set<String> handled = ConcurrentHashMap.newKeySet();
        private final String pattern;

        RecordingPlugin(String pattern) {
            this.pattern = pattern;
        }

        @Override
        public String name() {
            return "RecordingPlugin " + pattern;
        }

        @Override
        public String pattern() {
            return pattern;
        }

        @Override
        public List<Answer> handle(Job job) {
            handled.add(job.key());
            return List.of();
        }
    }
}
