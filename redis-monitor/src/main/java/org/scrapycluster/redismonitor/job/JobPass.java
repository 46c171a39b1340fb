package org.scrapycluster.redismonitor.job;

import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;

/**
 * Processes the jobs that one way of finding them (the scan, the signal listener) comes to, passing over a job whose
 * keys Redis refuses (its waiting list or failure count of another type, written by hand): that job is logged once and
 * stays, and the others are processed, with no outage back-off (docs/operations.md "Keys Redis refuses").
 */
final class JobPass {

    private final JobProcessor processor;
    private final RefusedKeys refused;

    /**
     * @param log      where to report a refused job
     * @param activity the pass, as the start of a sentence ("The job scan")
     */
    JobPass(JobProcessor processor, Logger log, String activity) {
        this.processor = processor;
        this.refused = new RefusedKeys(log, activity);
    }

    /** Processes the job at {@code key} with {@code plugin}, unless Redis refuses its keys. */
    void process(JobPlugin plugin, String key) throws OutboundUnavailableException {
        refused.run(key, () -> processor.process(plugin, key));
    }
}
