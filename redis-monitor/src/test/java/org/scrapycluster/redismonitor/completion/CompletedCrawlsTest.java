package org.scrapycluster.redismonitor.completion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;

/**
 * The announcements waiting in {@code crawls:completed} (docs/redis-monitor.md "complete"), against a
 * redis-server of their own (so that no other test's crawl is retired or announced here) and Kafka
 * stand-ins whose sends the tests settle by hand: an announcement leaves the list only once Kafka has
 * taken it, and one monitor at a time sends the list.
 */
class CompletedCrawlsTest {

    private static final Json JSON = new Json(new JsonLimits(64, 1 << 20, 1 << 20));
    private static final String FIRST = "[\"link\",\"app\",\"c1\",12]";
    private static final String SECOND = "[\"link\",\"app\",\"c2\",0]";

    private EmbeddedRedis server;
    private RedisConnection redis;
    private final List<AutoCloseable> monitors = new ArrayList<>();

    @BeforeEach
    void startRedis() {
        server = EmbeddedRedis.start(0, DataDirectory.temporary("completed-crawls"));
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", server.port()));
        // as the retire script files them
        redis.sync().rpush(Keyspace.CRAWLS_COMPLETED, FIRST, SECOND);
    }

    @AfterEach
    void stopRedis() throws Exception {
        for (AutoCloseable monitor : monitors.reversed()) {
            monitor.close();
        }
        redis.close();
        server.close();
    }

    @Test
    void anAnnouncementStaysFirstInLineUntilKafkaHasTakenIt() throws Exception {
        MockProducer<String, byte[]> kafka = kafka();
        CrawlCompletion completion = monitor(kafka);

        CompletableFuture<Void> unavailable = announcing(completion);
        Awaitility.await().until(() -> kafka.history().size() == 1);
        assertEquals(List.of(FIRST, SECOND), waiting(), "while Kafka has not taken it, a monitor that dies loses nothing");
        kafka.errorNext(new TimeoutException("Kafka is away"));
        assertInstanceOf(OutboundUnavailableException.class, assertThrows(CompletionException.class, unavailable::join).getCause());
        assertEquals(List.of(FIRST, SECOND), waiting(), "kept, in its place");

        CompletableFuture<Void> sent = announcing(completion);
        Awaitility.await().until(() -> kafka.history().size() == 2);
        kafka.completeNext();
        Awaitility.await().until(() -> kafka.history().size() == 3);
        assertEquals(List.of(SECOND), waiting(), "the first left the list once Kafka took it");
        kafka.completeNext();
        sent.join();
        assertEquals(List.of(), waiting());
        assertEquals(List.of("c1", "c1", "c2"), crawlids(kafka));
    }

    @Test
    void anAnnouncementKafkaRefusesForGoodIsKeptToo() {
        MockProducer<String, byte[]> kafka = kafka();
        CompletableFuture<Void> refused = announcing(monitor(kafka));
        Awaitility.await().until(() -> kafka.history().size() == 1);
        kafka.errorNext(new RecordTooLargeException("too large"));

        assertInstanceOf(KafkaException.class, assertThrows(CompletionException.class, refused::join).getCause());
        assertEquals(List.of(FIRST, SECOND), waiting());
    }

    @Test
    void aSecondMonitorLeavesTheAnnouncementsToTheOneSendingThem() throws Exception {
        MockProducer<String, byte[]> sendingKafka = kafka();
        MockProducer<String, byte[]> otherKafka = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        CrawlCompletion other = monitor(otherKafka);

        CompletableFuture<Void> sending = announcing(monitor(sendingKafka));
        Awaitility.await().until(() -> sendingKafka.history().size() == 1);
        other.announce();
        assertEquals(List.of(), otherKafka.history(), "the first announcement is on its way already");

        sendingKafka.completeNext();
        Awaitility.await().until(() -> sendingKafka.history().size() == 2);
        sendingKafka.completeNext();
        sending.join();
        other.announce();
        assertEquals(List.of(), otherKafka.history());
        assertEquals(List.of("c1", "c2"), crawlids(sendingKafka), "each sent once");
        assertEquals(List.of(), waiting());
    }

    private static MockProducer<String, byte[]> kafka() {
        return new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    }

    /** A monitor's completion check answering through {@code kafka}, with locks of its own. */
    private CrawlCompletion monitor(MockProducer<String, byte[]> kafka) {
        RedisLocks locks = new RedisLocks(redis, Duration.ofSeconds(6));
        monitors.add(locks);
        OutboundPublisher outbound = new OutboundPublisher(kafka, Topics.withPrefix("done"), false, Duration.ofSeconds(30), JSON,
                new TopicReach("done.outbound_firehose", (topic, wait) -> new CompletableFuture<>(), () -> { }, Clock.systemUTC(),
                        Duration.ofSeconds(30)), Clock.systemUTC());
        CrawlCompletion completion = new CrawlCompletion(redis, locks, outbound, Duration.ofSeconds(5), Duration.ofSeconds(5),
                new SimpleMeterRegistry());
        monitors.add(completion);
        return completion;
    }

    private static CompletableFuture<Void> announcing(CrawlCompletion completion) {
        return CompletableFuture.runAsync(() -> {
            try {
                completion.announce();
            } catch (OutboundUnavailableException e) {
                throw new CompletionException(e);
            }
        });
    }

    private List<String> waiting() {
        return redis.sync().lrange(Keyspace.CRAWLS_COMPLETED, 0, -1);
    }

    private static List<String> crawlids(MockProducer<String, byte[]> kafka) throws JsonInputException {
        List<String> crawlids = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : kafka.history()) {
            crawlids.add(JSON.readTree(record.value()).path("crawlid").asText());
        }
        return crawlids;
    }
}
