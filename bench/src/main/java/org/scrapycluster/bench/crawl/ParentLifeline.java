package org.scrapycluster.bench.crawl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Ends a child JVM with the JVM that started it. {@link CrawlerProcess} keeps the node's standard
 * input open and never writes to it; the kernel closes it when the benchmark's JVM ends, however it
 * ends, and the node then stops as it would on Ctrl-C. Without it, a benchmark killed mid-run left
 * its node crawling against a broker and a Redis that were gone.
 */
final class ParentLifeline {

    private ParentLifeline() {
    }

    /** Runs {@code onEnd} on a daemon thread once {@code lifeline} reaches its end or fails. */
    static Thread watch(InputStream lifeline, Runnable onEnd) {
        return Thread.ofPlatform().daemon().name("parent-lifeline").start(() -> {
            try {
                lifeline.transferTo(OutputStream.nullOutputStream());
            } catch (IOException closed) {
                // as good as its end
            }
            onEnd.run();
        });
    }
}
