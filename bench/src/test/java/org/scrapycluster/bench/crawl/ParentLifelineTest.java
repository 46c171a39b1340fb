package org.scrapycluster.bench.crawl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ParentLifelineTest {

    @Test
    void theActionRunsOnceTheParentsEndClosesAndNotBefore() throws IOException, InterruptedException {
        PipedOutputStream parent = new PipedOutputStream();
        PipedInputStream lifeline = new PipedInputStream(parent);
        CountDownLatch ended = new CountDownLatch(1);
        Thread watcher = ParentLifeline.watch(lifeline, ended::countDown);
        parent.write("anything the parent writes is read and ignored".getBytes());
        parent.flush();
        assertFalse(ended.await(200, TimeUnit.MILLISECONDS), "the parent is still there");
        parent.close();
        assertTrue(ended.await(10, TimeUnit.SECONDS));
        assertTrue(watcher.isDaemon(), "it never holds the JVM up");
    }
}
