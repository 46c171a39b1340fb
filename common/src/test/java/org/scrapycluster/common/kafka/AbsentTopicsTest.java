package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.stream.IntStream;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.ManualClock;

/** A topic Kafka took nothing for is skipped for a minute, and topics over a minute old are forgotten as more come. */
class AbsentTopicsTest {

    private final ManualClock clock = new ManualClock();
    private final AbsentTopics absent = new AbsentTopics(clock);

    @Test
    void aTopicIsSkippedForAMinute() {
        absent.absent("demo.outbound_app", new TimeoutException("not present in metadata"));
        assertTrue(absent.skipped("demo.outbound_app"));
        assertFalse(absent.skipped("demo.outbound_other"));

        clock.advance(Duration.ofMinutes(1));
        assertFalse(absent.skipped("demo.outbound_app"), "tried again");
    }

    @Test
    void theTopicsOfAppidsSentOnceEachDoNotPileUp() {
        IntStream.range(0, 100_000).forEach(app -> {
            absent.absent("demo.outbound_app" + app, new TimeoutException("not present in metadata"));
            if (app % 1_000 == 999) {
                clock.advance(Duration.ofSeconds(10));
            }
        });
        assertTrue(absent.kept() < 20_000, "those of the last minute or so, not all of them: " + absent.kept());
        assertTrue(absent.skipped("demo.outbound_app99999"));
        assertFalse(absent.skipped("demo.outbound_app0"));
    }
}
