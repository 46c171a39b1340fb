package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Work handed to the workers after a stop shut them down runs on the thread that hands it, rather than being refused; a
 * worker that keeps the stop waiting is named with what it runs.
 */
class WorkerPoolTest {

    @Test
    void aWorkerAtWorkIsNamedWithTheFrameItRunsOutsideTheJdk() throws InterruptedException {
        ExecutorService workers = WorkerPool.start(2, "held");
        ExecutorService another = WorkerPool.start(1, "held-too"); // another spider's, whose name starts alike
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        workers.execute(() -> holdUntil(started, release));
        another.execute(() -> holdUntil(started, release));
        try {
            assertTrue(started.await(10, TimeUnit.SECONDS));
            List<String> atWork = WorkerPool.atWork("held");
            assertEquals(1, atWork.size(), atWork.toString());
            assertTrue(atWork.getFirst().matches("crawler-worker-held-\\d+ at org\\.scrapycluster\\.crawler\\.node\\.WorkerPoolTest"
                    + "\\.holdUntil\\(WorkerPoolTest\\.java:\\d+\\)"), atWork.toString());
        } finally {
            release.countDown();
            workers.shutdown();
            another.shutdown();
        }
        assertTrue(workers.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(List.of(), WorkerPool.atWork("held"));
    }

    /** A call that does not return until {@code release}: an item pipeline's whose store never answers. */
    private static void holdUntil(CountDownLatch started, CountDownLatch release) {
        started.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void workHandedOverAfterTheStopRunsOnTheThreadThatHandsIt() throws InterruptedException {
        ExecutorService workers = WorkerPool.start(2, "link");
        String worker = CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(), workers).join();
        assertTrue(worker.startsWith("crawler-worker-link-"), worker);

        workers.shutdown();
        assertTrue(workers.awaitTermination(10, TimeUnit.SECONDS));
        String caller = Thread.currentThread().getName();
        assertEquals(caller, CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(), workers).join(),
                "the next stage of a result Kafka took at the stop goes on, and its request is acknowledged");
    }
}
