package org.scrapycluster.crawler.node;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The node's workers, which parse pages, file their links and pass results from one item pipeline to the next. A stop
 * shuts them down before the pipelines flush (docs/operations.md, "Stopping"); what is handed to them after that — the
 * next stage of a result once Kafka has taken it, the last filing call of a page — runs on the thread that hands it
 * instead of being refused, which would leave its request neither acknowledged nor handed back until its lease ran out,
 * and the page crawled and published again.
 */
final class WorkerPool {

    private WorkerPool() {
    }

    /** {@code threads} daemon workers named after {@code spiderId}, waiting for work in one unbounded queue. */
    static ExecutorService start(int threads, String spiderId) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                Thread.ofPlatform().name("crawler-worker-" + spiderId + "-", 1).daemon().factory(), (task, pool) -> task.run());
    }
}
