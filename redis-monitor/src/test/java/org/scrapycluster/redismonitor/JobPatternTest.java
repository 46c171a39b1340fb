package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.redismonitor.job.JobPattern;
import org.scrapycluster.redismonitor.job.JobPlugin;

/** A plugin's glob of its job keys as a start checks it: its own jobs' keys, never the cluster's. */
class JobPatternTest {

    /** A glob of {@code *} took every string key of a cluster, which the monitor deleted after handing them to it. */
    @ParameterizedTest
    @ValueSource(strings = {"*", "lock:*", "stats:*", "cluster:*", "*:throttle_*", "jobs:*"})
    void aGlobThatMatchesTheClustersOwnKeysFailsTheStart(String glob) {
        JobPattern.Missing refused = assertThrows(JobPattern.Missing.class, () -> JobPattern.check(plugin(glob)));
        assertEquals("returned '" + glob + "', which matches keys the cluster keeps for itself",
                refused.getMessage().substring(0, refused.getMessage().indexOf(" (")), refused.getMessage());
    }

    @Test
    void theErrorNamesAFewOfTheKeysMatched() {
        JobPattern.Missing refused = assertThrows(JobPattern.Missing.class, () -> JobPattern.check(plugin("lock:*")));
        assertEquals("returned 'lock:*', which matches keys the cluster keeps for itself (lock:x, lock:x:failures): the job scan"
                + " would hand them to it and delete them; give the glob of its own jobs' keys", refused.getMessage());
    }

    @Test
    void theJobsOwnGlobsAndAPluginsOwnKeysPass() {
        for (String glob : List.of(Keyspace.INFO_APP.glob(), Keyspace.INFO_CRAWL.glob(), Keyspace.STOP_CRAWL.glob(),
                Keyspace.STATS_REQUEST.glob(), Keyspace.ZOOKEEPER.glob(), Keyspace.TIMEOUT.glob(), "peek:*:*:*:*", "ping:*")) {
            assertDoesNotThrow(() -> JobPattern.check(plugin(glob)), glob);
        }
    }

    @Test
    void theBuiltInJobsKeysAGlobMatchesAreThoseItWouldTake() {
        assertEquals(List.of("timeout:x:x:x"), JobPattern.jobKeys(JobPattern.check(plugin("timeout:*"))));
        assertEquals(List.of("info:x:x", "info:x:x:x"), JobPattern.jobKeys(JobPattern.check(plugin(Keyspace.INFO_APP.glob()))));
        assertEquals(List.of(), JobPattern.jobKeys(JobPattern.check(plugin("peek:*:*:*:*"))));
    }

    @Test
    void aGlobNeverClosedOrNoneAtAllIsStillRefused() {
        assertEquals("returned null", assertThrows(JobPattern.Missing.class, () -> JobPattern.check(plugin(null))).getMessage());
    }

    private static JobPlugin plugin(String glob) {
        return new IdlePlugin("greedy", () -> glob, () -> { });
    }
}
