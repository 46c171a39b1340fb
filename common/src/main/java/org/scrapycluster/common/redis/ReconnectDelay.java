package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.lettuce.core.resource.Delay;
import org.scrapycluster.common.service.Backoff;

/**
 * The waits between Lettuce's attempts to reconnect to Redis, as every retry loop of the services waits
 * ({@link Backoff#standard}: from 0.5 s, doubling to 10 s, each drawn between half and all of it), so that a service
 * is back at most about 10 s after Redis is (docs/operations.md, "Outages"). Lettuce's own default doubles up to 30 s:
 * after an outage of 20 s, the services came back 13 to 24 s after Redis did. Lettuce asks from several threads, so each
 * draw uses the asking thread's {@link ThreadLocalRandom}.
 */
final class ReconnectDelay extends Delay {

    private final Backoff schedule = Backoff.standard(() -> ThreadLocalRandom.current().nextLong());

    @Override
    public Duration createDelay(long attempt) {
        return schedule.delayAfter(Math.max(1, attempt));
    }
}
