package org.scrapycluster.crawler.middleware;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;

/** A test middleware ({@code thread-noting}) that notes the thread each {@code beforeRequest} runs on. */
public final class ThreadNotingMiddleware implements DownloaderMiddleware {

    /** The threads {@code beforeRequest} ran on, in order. */
    public static final Queue<Thread> THREADS = new ConcurrentLinkedQueue<>();

    @Override
    public String name() {
        return "thread-noting";
    }

    @Override
    public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        THREADS.add(Thread.currentThread());
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(request));
    }
}
