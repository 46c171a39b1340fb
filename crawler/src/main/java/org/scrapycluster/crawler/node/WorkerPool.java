package org.scrapycluster.crawler.node;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.scrapycluster.common.extension.PluginFolders;

/**
 * The node's workers, which parse pages, file their links and pass results from one item pipeline to the next. A stop
 * shuts them down before the pipelines flush (docs/operations.md, "Stopping"); what is handed to them after that — the
 * next stage of a result once Kafka has taken it, the last filing call of a page — runs on the thread that hands it
 * instead of being refused, which would leave its request neither acknowledged nor handed back until its lease ran out,
 * and the page crawled and published again.
 */
final class WorkerPool {

    private static final String NAME = "crawler-worker-";

    private WorkerPool() {
    }

    /** {@code threads} daemon workers named after {@code spiderId}, waiting for work in one unbounded queue. */
    static ExecutorService start(int threads, String spiderId) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                Thread.ofPlatform().name(NAME + spiderId + "-", 1).daemon().factory(), (task, pool) -> task.run());
    }

    /**
     * The workers of {@code spiderId} at work, each named with the frame that most likely holds it: the first of a plugin
     * jar's class (an extension's call that never returns: {@code crawler-worker-link-3 at com.example.Store.process(Store.java:40)}),
     * else the first that is not the JDK's; a worker waiting for work, or ending, runs neither and is left out.
     */
    static List<String> atWork(String spiderId) {
        Pattern ofSpider = Pattern.compile(Pattern.quote(NAME + spiderId + "-") + "\\d+");
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(thread -> ofSpider.matcher(thread.getKey().getName()).matches())
                .sorted(Comparator.comparing(thread -> thread.getKey().getName()))
                .flatMap(thread -> holding(thread.getValue()).map(frame -> thread.getKey().getName() + " at " + frame.getClassName()
                        + "." + frame.getMethodName() + "(" + frame.getFileName() + ":" + frame.getLineNumber() + ")").stream())
                .toList();
    }

    private static Optional<StackTraceElement> holding(StackTraceElement[] frames) {
        return Arrays.stream(frames).filter(frame -> PluginFolders.LOADER_NAME.equals(frame.getClassLoaderName())).findFirst()
                .or(() -> Arrays.stream(frames).filter(frame -> frame.getModuleName() == null).findFirst());
    }
}
