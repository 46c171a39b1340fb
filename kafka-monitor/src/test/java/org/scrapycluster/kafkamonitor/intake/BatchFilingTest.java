package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;
import org.scrapycluster.kafkamonitor.testing.PrivateRedis;
import org.slf4j.LoggerFactory;

/** Filing a batch: in the order of its records, while Redis is away, or while it refuses a key the batch writes. */
class BatchFilingTest {

    @RegisterExtension
    static final PrivateRedis REDIS = new PrivateRedis("batch-filing-refusals");

    private static final TopicPartition PARTITION = new TopicPartition("demo.incoming", 0);
    private static final byte[] SEED = "{\"url\":\"http://example.com/\",\"appid\":\"app\",\"crawlid\":\"c1\"}"
            .getBytes(StandardCharsets.UTF_8);

    /**
     * A rebalance while the batch is held empties it: writing nothing would succeed, and did say that Redis was back
     * (and made the monitor ready) while it was still away.
     */
    @Test
    void aBatchWhoseRecordsLeftWithTheirPartitionsDuringAnOutageDoesNotSayRedisIsBack() {
        Disposition.Accepted seed = assertInstanceOf(Disposition.Accepted.class, intake().take(SEED));
        Batch batch = new Batch(List.of(new Batch.Entry(PARTITION, 0, SEED, seed)), System.nanoTime());
        withRedisAway(held -> batch.drop(List.of(PARTITION)), filing -> {
            RedisBatchWriter.Writes first = filing.start();
            first.add(seed.handling());
            filing.file(batch, first);
        });
        assertEquals(List.of(), batch.entries());
    }

    /** A batch of rejected records only, which writes nothing, does not say that Redis is back while it is away. */
    @Test
    void aBatchOfRejectedRecordsDuringAnOutageDoesNotSayRedisIsBack() {
        byte[] garbage = "not json".getBytes(StandardCharsets.UTF_8);
        Batch batch = new Batch(List.of(new Batch.Entry(PARTITION, 0, garbage, intake().take(garbage))), System.nanoTime());
        withRedisAway(held -> { }, filing -> filing.file(batch, filing.start()));
    }

    /**
     * Runs {@code filing} with a Redis that went away after it was connected to, its outage already told ({@code hold}
     * is the filing's wait between tries), and checks that Redis is still taken for away and not said to be back.
     */
    private static void withRedisAway(Consumer<Duration> hold, Consumer<BatchFiling> filing) {
        EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("batch-filing"));
        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
                CapturedLog logged = CapturedLog.start(BatchFilingTest.class, Level.INFO)) {
            server.close();
            OutageReporter outage = new OutageReporter(LoggerFactory.getLogger(BatchFilingTest.class), "Writing requests to Redis");
            outage.failed(new RedisException("Connection refused"));
            filing.accept(new BatchFiling(new RedisBatchWriter(redis, false), new IntakeMetrics(new SimpleMeterRegistry()), outage, hold));

            assertTrue(outage.isDown(), "Redis is still away");
            assertEquals(List.of(), logged.lines().stream().filter(message -> message.contains("Redis is back")).toList());
        }
    }

    /**
     * A signal only hastens a job the Redis monitors' scan finds anyway: a {@code jobs:signal} Redis refuses rejects no
     * request that was written (a seed whose timeout key was written, an info request).
     */
    @Test
    void aJobsSignalOfAnotherTypeRejectsNoRequest() {
        RedisConnection redis = REDIS.connection();
        redis.sync().set(Keyspace.JOBS_SIGNAL, "a string written by hand");

        Batch batch = fileBatch(filing(redis, held -> { }),
                "{\"url\":\"http://example.com/\",\"appid\":\"app\",\"crawlid\":\"c1\",\"expires\":4102444800}",
                "{\"action\":\"info\",\"appid\":\"app\",\"uuid\":\"u1\",\"spiderid\":\"link\"}");

        assertEquals(List.of(Disposition.Accepted.class, Disposition.Accepted.class),
                batch.entries().stream().map(entry -> entry.disposition().getClass()).toList());
        assertEquals(1, redis.sync().zcard(Keyspace.queue("link", "example.com")));
        assertEquals("a string written by hand", redis.sync().get(Keyspace.JOBS_SIGNAL));
    }

    /**
     * A batch written again after a failure does not post again a job Redis took the first time: a Redis monitor may
     * have answered it meanwhile, and would answer it twice (seen once, an info request answered twice after Redis ran
     * out of memory for a moment). Here the seed's enqueue is refused for a moment ({@code NOPERM}, an outage to wait
     * out, as {@code OOM} is) while the info request's job goes through, and is answered during the wait.
     */
    @Test
    void aBatchWrittenAgainDoesNotPostAgainAJobRedisTookTheFirstTime() {
        RedisConnection redis = REDIS.connection();
        String job = Keyspace.INFO_APP.fill("link", "app");
        List<String> answered = new ArrayList<>();
        Consumer<Duration> answerDuringTheWait = held -> {
            redis.sync().aclSetuser("default", AclSetuserArgs.Builder.allKeys());
            answered.add(redis.sync().get(job));
            redis.sync().del(job, Keyspace.JOB_WAITING.fill(job));
        };
        redis.sync().aclSetuser("default", AclSetuserArgs.Builder.resetKeys().keyPattern("info:*").keyPattern("jobs:*"));
        try {
            Batch batch = fileBatch(filing(redis, answerDuringTheWait),
                    "{\"action\":\"info\",\"appid\":\"app\",\"uuid\":\"u1\",\"spiderid\":\"link\"}",
                    "{\"url\":\"http://example.com/\",\"appid\":\"app\",\"crawlid\":\"c1\"}");

            assertEquals(List.of("u1"), answered, "the job went in the first attempt");
            assertEquals(List.of(Disposition.Accepted.class, Disposition.Accepted.class),
                    batch.entries().stream().map(entry -> entry.disposition().getClass()).toList());
            assertEquals(1, redis.sync().zcard(Keyspace.queue("link", "example.com")), "the seed, written again");
            assertEquals(0, redis.sync().exists(job, Keyspace.JOB_WAITING.fill(job)), "the job answered is not posted again");
        } finally {
            redis.sync().aclSetuser("default", AclSetuserArgs.Builder.allKeys());
        }
    }

    /**
     * A stop of a crawl blacklists it as the Kafka monitor takes it: the seeds behind it, in its own batch too, are
     * refused, where they were queued (and crawled) until a Redis monitor took the stop's job.
     */
    @Test
    void seedsThatComeAfterAStopOfTheirCrawlAreRefused() throws Exception {
        RedisConnection redis = REDIS.connection();

        Batch batch = fileBatch(filing(redis, held -> { }),
                "{\"url\":\"http://example.com/a\",\"appid\":\"app\",\"crawlid\":\"c7\"}",
                "{\"action\":\"stop\",\"appid\":\"app\",\"uuid\":\"u7\",\"spiderid\":\"link\",\"crawlid\":\"c7\"}",
                "{\"url\":\"http://example.com/b\",\"appid\":\"app\",\"crawlid\":\"c7\"}",
                "{\"url\":\"http://example.com/c\",\"appid\":\"app\",\"crawlid\":\"c8\"}");

        assertEquals(List.of(Disposition.Accepted.class, Disposition.Accepted.class, Disposition.Rejected.class,
                Disposition.Accepted.class), batch.entries().stream().map(entry -> entry.disposition().getClass()).toList());
        List<String> queued = new ArrayList<>();
        for (String member : redis.sync().zrange(Keyspace.queue("link", "example.com"), 0, -1)) {
            queued.add(new ObjectMapper().readTree(member).get("url").asText());
        }
        assertEquals(List.of("http://example.com/a", "http://example.com/c"), queued.stream().sorted().toList(),
                "the seed before the stop is queued for the Redis monitor to purge; the other crawl's too");
        assertEquals(1, redis.sync().exists(Keyspace.STOP_CRAWL.fill("link", "app", "c7")));
    }

    private static BatchFiling filing(RedisConnection redis, Consumer<Duration> hold) {
        return new BatchFiling(new RedisBatchWriter(redis, false), new IntakeMetrics(new SimpleMeterRegistry()),
                new OutageReporter(LoggerFactory.getLogger(BatchFilingTest.class), "Writing requests to Redis"), hold);
    }

    /** A batch of {@code records}, each accepted, filed by {@code filing}. */
    private static Batch fileBatch(BatchFiling filing, String... records) {
        RequestIntake intake = intake();
        RedisBatchWriter.Writes first = filing.start();
        List<Batch.Entry> entries = new ArrayList<>();
        for (int offset = 0; offset < records.length; offset++) {
            byte[] record = records[offset].getBytes(StandardCharsets.UTF_8);
            Disposition.Accepted accepted = assertInstanceOf(Disposition.Accepted.class, intake.take(record));
            first.add(accepted.handling());
            entries.add(new Batch.Entry(PARTITION, offset, record, accepted));
        }
        Batch batch = new Batch(entries, System.nanoTime());
        filing.file(batch, first);
        return batch;
    }

    private static RequestIntake intake() {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of()));
        return new RequestIntake(new Json(JsonLimits.from(settings)), PluginSet.load(settings), Clock.systemUTC());
    }
}
