package org.scrapycluster.crawler.pipeline;

import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** Test pipelines, named in {@code ITEM_PIPELINES} by their class names, for the threads the stages are called on. */
final class ThreadedPipelines {

    /** The name of the thread {@link Answering} completes its futures on, as a Kafka client's network thread. */
    static final String CLIENT_THREAD = "client-network-thread";
    /** The futures {@link Answering} returned and did not complete yet. */
    static final BlockingQueue<CompletableFuture<Void>> PENDING = new LinkedBlockingQueue<>();
    /** The threads {@link Noting} was called on. */
    static final Queue<Thread> CALLED_ON = new ConcurrentLinkedQueue<>();

    private ThreadedPipelines() {
    }

    /** Completes the next future {@link Answering} returns, on a thread named {@value #CLIENT_THREAD}, once it has returned it. */
    static void completeOnClientThread() throws InterruptedException {
        CompletableFuture<Void> pending = PENDING.poll(1, TimeUnit.MINUTES);
        Thread.ofPlatform().name(CLIENT_THREAD).start(() -> pending.complete(null)).join();
    }

    /**
     * A stage that hands items to a client whose own thread completes the future later, as the {@code kafka} stage
     * does: {@link #completeOnClientThread} completes it.
     */
    public static final class Answering implements ItemPipeline {
        @Override
        public String name() {
            return "answering";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            CompletableFuture<Void> taken = new CompletableFuture<>();
            PENDING.add(taken);
            return taken;
        }
    }

    /** A stage that notes the thread it is called on. */
    public static final class Noting implements ItemPipeline {
        @Override
        public String name() {
            return "noting";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            CALLED_ON.add(Thread.currentThread());
            return CompletableFuture.completedFuture(null);
        }
    }
}
