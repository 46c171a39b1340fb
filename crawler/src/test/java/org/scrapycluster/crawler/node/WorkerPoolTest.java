package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** Work handed to the workers after a stop shut them down runs on the thread that hands it, rather than being refused. */
class WorkerPoolTest {

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
