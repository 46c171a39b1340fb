package org.scrapycluster.redismonitor.zookeeper;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;

import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;

/**
 * The step of a ZooKeeper edit a job is answered at when the edit fails or is given up: loading the config until a
 * write was sent, storing it from then on, even while the edit reads the node again after a conflict (the write may
 * have landed). An edit given up writes nothing afterwards: an interrupt does not stop the reading of a large node, after
 * which its write would go out although the job was answered that nothing was written. Thread-safe.
 */
final class EditStep {

    /** Null once the edit is given up. */
    private final AtomicReference<Failure> step = new AtomicReference<>(Failure.LOAD);

    /**
     * Notes that the edit enters {@code next}.
     *
     * @throws CancellationException when the edit was given up, which ends it before it writes
     */
    void enter(Failure next) {
        if (step.updateAndGet(current -> current == null ? null : current == Failure.STORE ? Failure.STORE : next) == null) {
            throw new CancellationException("the edit was given up before it wrote");
        }
    }

    /** The step a failure of the edit is answered at. */
    Failure current() {
        Failure current = step.get();
        return current == null ? Failure.STORE : current;
    }

    /** Gives the edit up: it writes nothing from now on. @return the step it is answered at */
    Failure giveUp() {
        Failure current = step.getAndSet(null);
        return current == null ? Failure.STORE : current;
    }
}
