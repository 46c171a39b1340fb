package org.scrapycluster.kafkamonitor.testing;

/** A user plugin during which the heap runs out: the cluster test's requests meet an {@link OutOfMemoryError}. */
public final class HeapExhaustingHandler extends FailingHandler {

    @Override
    Error failure() {
        return new OutOfMemoryError("Java heap space (thrown by a test plugin)");
    }
}
