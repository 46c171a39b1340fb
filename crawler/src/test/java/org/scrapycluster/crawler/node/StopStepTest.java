package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.embedded.junit.ManualClock;

/**
 * How long each wait of a stopping node may last, with the clock moved by hand: a step that stalls is one that waits
 * all it is granted. The process exits when {@link CrawlerCommand#SHUTDOWN_GRACE} has passed since the stop was asked
 * for, so whatever has not run by then never runs.
 */
class StopStepTest {

    private static final Duration GRACE = CrawlerCommand.SHUTDOWN_GRACE;

    private final ManualClock clock = new ManualClock();
    private final Instant stopAsked = clock.instant();
    private final StopBudget budget = StopStep.budget(GRACE, clock);

    @Test
    void withEveryStepStalledTheAcknowledgementsAndTheHandBackStillRunWithinTheGrace() {
        Instant givingBack = null;
        Duration acknowledgementsWait = null;
        for (StopStep step : StopStep.values()) {
            Duration wait = step.grantedBy(budget);
            if (step == StopStep.ACKNOWLEDGEMENTS) {
                givingBack = clock.instant();
                acknowledgementsWait = wait;
            }
            clock.advance(wait);
        }

        Duration begun = Duration.between(stopAsked, givingBack);
        assertTrue(begun.plus(StopStep.GIVE_BACK_RESERVE).plus(StopStep.AFTERWARDS).compareTo(GRACE) <= 0,
                "the give-back begins with its reserve, and what closes after it, left of the grace; it began " + begun
                        + " after the stop was asked for, of " + GRACE);
        assertEquals(StopStep.ACKNOWLEDGEMENTS.cap(), acknowledgementsWait, "the acknowledgements wait as long as on an ordinary stop");
        assertTrue(StopStep.GIVE_BACK_RESERVE.compareTo(StopStep.ACKNOWLEDGEMENTS.cap()) > 0,
                "the reserve leaves time to hand the leases back after the acknowledgements");
    }

    @Test
    void withEveryBackgroundTaskStalledTooTheGiveBackKeepsItsReserve() {
        // the node's close order (CrawlerNode#close): discovery, the scheduler and the drain, the heartbeat, the lease
        // reaper and the ZooKeeper follower, then the fetcher, the workers, the pipelines and the give-back
        List<StopStep> closeOrder = List.of(StopStep.BACKGROUND, StopStep.SCHEDULER, StopStep.DRAIN, StopStep.BACKGROUND,
                StopStep.BACKGROUND, StopStep.BACKGROUND, StopStep.FETCHER, StopStep.WORKERS, StopStep.PIPELINES);
        for (StopStep step : closeOrder) {
            clock.advance(step.grantedBy(budget));
        }

        Duration begun = Duration.between(stopAsked, clock.instant());
        assertTrue(begun.plus(StopStep.GIVE_BACK_RESERVE).plus(StopStep.AFTERWARDS).compareTo(GRACE) <= 0,
                "the give-back began " + begun + " after the stop was asked for, of " + GRACE);
        assertEquals(StopStep.ACKNOWLEDGEMENTS.cap(), StopStep.ACKNOWLEDGEMENTS.grantedBy(budget));
    }

    @Test
    void onAnOrdinaryStopEveryStepMayWaitAsLongAsItEverDid() {
        Map<StopStep, Duration> granted = new EnumMap<>(StopStep.class);
        for (StopStep step : StopStep.values()) {
            granted.put(step, step.grantedBy(budget));
        }

        for (StopStep step : StopStep.values()) {
            assertEquals(step.cap(), granted.get(step), step.name());
        }
    }

    @Test
    void timeTakenOutsideTheStepsShortensTheStepsAfterItButNotTheGiveBack() {
        StopStep.SCHEDULER.grantedBy(budget);
        clock.advance(Duration.ofSeconds(20)); // a part without a step of its own, stuck

        Duration drain = StopStep.DRAIN.grantedBy(budget);
        clock.advance(drain);

        assertEquals(GRACE.minus(StopStep.AFTERWARDS).minus(StopStep.GIVE_BACK_RESERVE).minusSeconds(20), drain);
        assertEquals(Duration.ZERO, StopStep.FETCHER.grantedBy(budget), "nothing left before the reserve");
        assertEquals(StopStep.ACKNOWLEDGEMENTS.cap(), StopStep.ACKNOWLEDGEMENTS.grantedBy(budget));
    }

    @Test
    void onceTheBudgetIsSpentNoStepWaits() {
        clock.advance(GRACE.plusSeconds(10));

        for (StopStep step : StopStep.values()) {
            assertEquals(Duration.ZERO, step.grantedBy(budget), step.name());
        }
    }
}
