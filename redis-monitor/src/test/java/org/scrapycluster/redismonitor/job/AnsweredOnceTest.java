package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;

/**
 * Each request is answered once although Kafka or Redis fails in the middle of its job: answers Kafka took before it
 * failed are not sent again, and a job whose answers Kafka took is ended once Redis is back rather than handled again.
 */
@ExtendWith(SharedStack.class)
class AnsweredOnceTest {

    private final String prefix = "answeredonce" + UUID.randomUUID().toString().replace("-", "");

    @Test
    void answersKafkaTookBeforeItFailedAreNotSentAgain(EmbeddedStack stack) throws Exception {
        try (JobTestBed bed = new JobTestBed(stack.redisPort(), prefix, 3, false)) {
            String key = prefix + ":app:crawl";
            JobKeys.write(bed.redis, key, "u-1").join();
            JobKeys.write(bed.redis, key, "u-2").join();
            Echo plugin = new Echo(prefix + ":*:*");

            CompletableFuture<Void> first = processLater(bed, plugin, key);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> bed.kafka.history().size() == 2);
            bed.kafka.completeNext();
            bed.kafka.errorNext(new NotEnoughReplicasException("one replica in sync"));
            ExecutionException failed = assertThrows(ExecutionException.class, first::get);
            assertInstanceOf(OutboundUnavailableException.class, failed.getCause().getCause());

            CompletableFuture<Void> second = processLater(bed, plugin, key);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                bed.kafka.completeNext();
                return second.isDone();
            });
            second.get();

            assertEquals(List.of("u-1", "u-2", "u-2"), bed.answered("uuid"), "u-1, which Kafka took, is not sent again");
            assertEquals(2, plugin.handled, "the answers kept are sent, not worked out again");
            assertEquals(0, bed.redis.sync().exists(key));
            bed.deleteKeysContaining(prefix);
        }
    }

    @Test
    void aJobWhoseEndRedisDidNotTakeIsEndedOnceRedisIsBackNotAnsweredAgain(@TempDir Path data) throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.kept(Files.createDirectories(data.resolve("redis"))));
             JobTestBed bed = new JobTestBed(server.port(), prefix, 3)) {
            String key = prefix + ":app:crawl";
            JobKeys.write(bed.redis, key, "u-1").join();
            Echo goingAway = new Echo(prefix + ":*:*") {
                @Override
                public List<Answer> handle(Job job) {
                    server.stop(); // Redis goes away after the job was read, before it is ended
                    Thread.ofVirtual().start(() -> {
                        sleep(Duration.ofSeconds(1));
                        server.restart();
                    });
                    return super.handle(job);
                }
            };

            bed.processor.process(goingAway, key);
            bed.processor.process(goingAway, key);

            assertEquals(List.of("u-1"), bed.answered("uuid"));
            assertEquals(0, bed.redis.sync().exists(key), "ended");
        }
    }

    private static CompletableFuture<Void> processLater(JobTestBed bed, JobPlugin plugin, String key) {
        return CompletableFuture.runAsync(() -> {
            try {
                bed.processor.process(plugin, key);
            } catch (OutboundUnavailableException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void sleep(Duration time) {
        try {
            Thread.sleep(time);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Answers each request with its uuid, and counts how often it worked one out. */
    private static class Echo implements JobPlugin {

        int handled;
        private final String pattern;

        Echo(String pattern) {
            this.pattern = pattern;
        }

        @Override
        public String name() {
            return "Echo";
        }

        @Override
        public String pattern() {
            return pattern;
        }

        @Override
        public List<Answer> handle(Job job) {
            handled++;
            return List.of(new Answer("app", Map.of("uuid", job.value()), "Sent an echo to kafka"));
        }
    }
}
