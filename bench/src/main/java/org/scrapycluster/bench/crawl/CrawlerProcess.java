package org.scrapycluster.bench.crawl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;

/**
 * One crawler node in a JVM of its own (as {@code scrapy-cluster crawler --set NAME=VALUE ...}), started with
 * the JVM options given and this JVM's class path, its output going to a log file. It counts as started
 * when its heartbeat key appears in Redis; {@link #close()} stops it as Ctrl-C would, and kills it when
 * it does not stop in time.
 */
final class CrawlerProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(40);

    private final Process process;
    private final Path log;

    private CrawlerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts the node and waits for its heartbeat in {@code redis}.
     *
     * @param jvmOptions the child JVM's options (heap and so on), as given to {@code java}
     * @param settings   the node's settings, passed with {@code --set}
     */
    static CrawlerProcess start(List<String> jvmOptions, Map<String, String> settings, RedisConnection redis)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CrawlerMain.class.getName()));
        settings.forEach((name, value) -> command.addAll(List.of("--set", name + "=" + value)));
        Path log = Files.createTempFile("bench-crawler-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        CrawlerProcess crawler = new CrawlerProcess(process, log);
        try {
            crawler.awaitHeartbeat(redis);
        } catch (RuntimeException | InterruptedException e) {
            crawler.close();
            throw e;
        }
        return crawler;
    }

    private void awaitHeartbeat(RedisConnection redis) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (RedisKeys.scan(redis, Keyspace.CRAWLER_STATS.glob()).isEmpty()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the crawler node exited with status " + process.exitValue() + "; see " + log);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the crawler node did not start within " + START_TIMEOUT + "; see " + log);
            }
            Thread.sleep(50);
        }
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The node's output. */
    Path log() {
        return log;
    }

    /** Stops the node as Ctrl-C would (SIGTERM), and kills it when it has not stopped after {@code STOP_TIMEOUT}. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
