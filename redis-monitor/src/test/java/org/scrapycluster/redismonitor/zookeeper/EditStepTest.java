package org.scrapycluster.redismonitor.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CancellationException;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;

class EditStepTest {

    private final EditStep step = new EditStep();

    @Test
    void anEditGivenUpWhileItLoadsIsAnsweredAtLoadingAndNeverWrites() {
        assertEquals(Failure.LOAD, step.giveUp());

        assertThrows(CancellationException.class, () -> step.enter(Failure.STORE), "its write does not go out");
    }

    @Test
    void anEditThatSentAWriteIsAnsweredAtStoringEvenWhileItLoadsAgain() {
        step.enter(Failure.STORE);
        step.enter(Failure.LOAD); // a conflict: the node is read again, and the write may have landed

        assertEquals(Failure.STORE, step.current());
        assertEquals(Failure.STORE, step.giveUp());
        assertThrows(CancellationException.class, () -> step.enter(Failure.LOAD));
    }
}
