package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;

import com.fasterxml.jackson.databind.JsonNode;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What the Kafka pipeline sends, where, and what it does when Kafka refuses, with Kafka's {@link MockProducer} in
 * place of the producer (no broker: the crawl tests send to a real one).
 */
class KafkaPipelineTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:22:33.123456Z");
    private static final Json JSON = new Json(new JsonLimits(64, 1_000_000, 10_000_000));
    private static final Settings DEFAULTS = Settings.defaults("crawler");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final HealthRegistry health = new HealthRegistry();
    private final List<KafkaPipeline> opened = new ArrayList<>();
    private MockProducer<String, byte[]> producer;
    /** What Kafka answers the pipeline's question whether it has the firehose: by default, nothing. */
    private BiFunction<String, Duration, CompletionStage<Boolean>> kafkaSays = (topic, wait) -> new CompletableFuture<>();

    @AfterEach
    void close() {
        opened.forEach(KafkaPipeline::close);
    }

    /** A pipeline opened on the crawler's defaults with {@code set} over them, sending through a mock producer. */
    private KafkaPipeline pipeline(boolean autoComplete, Map<String, ?> set) {
        producer = new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
        KafkaPipeline pipeline = new KafkaPipeline(settings -> producer,
                context -> new TopicReach(Topics.from(context.settings()).crawledFirehose(), kafkaSays, () -> { }, context.clock(),
                        Duration.ofSeconds(30)));
        pipeline.open(new PipelineContext(DEFAULTS.withLauncherValues(set), "link", new CrawlerMetrics(registry, "link", "n1"), health,
                Clock.fixed(NOW, ZoneOffset.UTC)));
        opened.add(pipeline);
        return pipeline;
    }

    private static CrawlResult page(String appid, byte[] body) {
        return CrawledPage.of(body).appid(appid).attrs(Map.of("k", "v")).result();
    }

    private static byte[] text(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> topics() {
        return producer.history().stream().map(ProducerRecord::topic).toList();
    }

    private JsonNode sent(int index) throws Exception {
        return JSON.readTree(producer.history().get(index).value());
    }

    private double counted(String name, String kind) {
        var search = registry.find(name);
        var counter = kind == null ? search.counter() : search.tag("kind", kind).counter();
        return counter == null ? 0 : counter.count();
    }

    private boolean kafkaUp() {
        return health.check().checks().get("kafka").isUp();
    }

    @Test
    void aPageGoesToTheFirehoseAsOneSortedJsonMessageWithoutAKey() throws Exception {
        pipeline(true, Map.of()).process(page("app", text("<p>hi</p>"))).get();

        assertEquals(List.of("demo.crawled_firehose"), topics());
        assertNull(producer.history().get(0).key());
        JsonNode message = sent(0);
        assertEquals("<p>hi</p>", message.get("body").asText());
        assertEquals("2026-03-01T10:22:33.123456", message.get("timestamp").asText(), "the pipeline's clock");
        assertEquals(NOW.toEpochMilli(), producer.history().get(0).timestamp(), "the record stamped on it too, not the host's");
        assertEquals("app", message.get("appid").asText());
        assertEquals("crawl1", message.get("crawlid").asText());
        assertEquals("v", message.get("attrs").get("k").asText());
        List<String> keys = new ArrayList<>();
        message.fieldNames().forEachRemaining(keys::add);
        assertEquals(keys.stream().sorted().toList(), keys, "keys sorted");
        assertTrue(kafkaUp());
    }

    @Test
    void withAppidTopicsThePageAlsoGoesToItsAppsTopicUnlessTheAppidCannotNameOne() throws Exception {
        KafkaPipeline pipeline = pipeline(true, Map.of("KAFKA_APPID_TOPICS", true, "KAFKA_TOPIC_PREFIX", "shop"));

        pipeline.process(page("store_7", text("x"))).get();
        assertEquals(List.of("shop.crawled_firehose", "shop.crawled_store_7"), topics());
        assertArrayEquals(producer.history().get(0).value(), producer.history().get(1).value(), "the same message on both");

        producer.clear();
        pipeline.process(page("not a/topic", text("x"))).get();
        assertEquals(List.of("shop.crawled_firehose"), topics(), "sent to the firehose only, and the item is done");
    }

    @Test
    void withBase64TheBodyTravelsEncoded() throws Exception {
        pipeline(true, Map.of("KAFKA_BASE_64_ENCODE", true)).process(page("app", text("text"))).get();

        assertEquals("dGV4dA==", sent(0).get("body").asText());
    }

    @Test
    void aPageTooLargeForKafkaIsSentWithoutItsBodyAndCounted() throws Exception {
        KafkaPipeline pipeline = pipeline(true, Map.of("KAFKA_PRODUCER_MAX_REQUEST_SIZE", 4096));

        assertTrue(pipeline.deliver(page("app", text("a".repeat(3000)))).get());
        assertTrue(pipeline.deliver(page("app", text("b".repeat(5000)))).get(), "published, without its body");

        assertEquals(2, producer.history().size(), "nothing lost");
        assertFalse(sent(0).has("body_omitted"), "3000 bytes fit");
        JsonNode trimmed = sent(1);
        assertEquals("", trimmed.get("body").asText());
        assertTrue(trimmed.get("body_omitted").asBoolean());
        assertEquals("http://shop.test/a", trimmed.get("url").asText(), "the rest of the message is kept");
        assertTrue(producer.history().get(1).value().length < 4096);
        assertEquals(1, counted("crawler.results.too_large", null));
    }

    @Test
    void aPageIsFittedToTheRequestSizeTheProducerUsesAndToItsBuffer() throws Exception {
        KafkaPipeline byClientProperty = pipeline(true, Map.of("KAFKA_CLIENT_PROPERTIES", Map.of("max.request.size", 4096)));
        assertTrue(byClientProperty.deliver(page("app", text("b".repeat(5000)))).get());
        assertTrue(sent(0).get("body_omitted").asBoolean(), "max.request.size set in KAFKA_CLIENT_PROPERTIES is the one used");

        KafkaPipeline pastTheBuffer = pipeline(true, Map.of("KAFKA_PRODUCER_MAX_REQUEST_SIZE", 10 << 20,
                "KAFKA_PRODUCER_BUFFER_BYTES", 8192));
        assertTrue(pastTheBuffer.deliver(page("app", text("c".repeat(10_000)))).get());
        assertTrue(sent(0).get("body_omitted").asBoolean(), "the producer refuses a record larger than its buffer");
    }

    @Test
    void aPageWithTooManyLinksForKafkaIsSentWithoutItsBodyAndLinks() throws Exception {
        KafkaPipeline pipeline = pipeline(true, Map.of("KAFKA_PRODUCER_MAX_REQUEST_SIZE", 4096));
        List<Link> links = IntStream.range(0, 8000).mapToObj(i -> new Link("http://shop.test/item/" + i, "item")).toList();

        assertTrue(pipeline.deliver(page("app", text("b".repeat(5000))).withLinks(links)).get());

        JsonNode trimmed = sent(0);
        assertTrue(trimmed.get("body_omitted").asBoolean());
        assertTrue(trimmed.get("links_omitted").asBoolean());
        assertEquals(0, trimmed.get("links").size());
        assertEquals(1, counted("crawler.results.too_large", null));
        assertEquals(0, counted("crawler.errors", "result_too_large"));
    }

    @Test
    void aPageTooLargeEvenWithoutItsBodyAndLinksIsDroppedCountedAndNotPublished() throws Exception {
        KafkaPipeline pipeline = pipeline(true, Map.of("KAFKA_PRODUCER_MAX_REQUEST_SIZE", 4096));
        CrawlResult page = page("app", text("b".repeat(5000))).withAttrs(Map.of("note", "x".repeat(10_000)));

        assertFalse(pipeline.deliver(page).get(), "not counted as a published page");

        assertEquals(List.of(), producer.history(), "nothing sent: the producer would refuse it");
        assertEquals(1, counted("crawler.errors", "result_too_large"));
        assertEquals(0, counted("crawler.results.too_large", null), "that counts the pages sent cut down");
        assertTrue(kafkaUp(), "Kafka is not to blame");
    }

    @Test
    void aPageWhoseSpiderAddedAFieldJsonCannotWriteIsDroppedAndCountedNotRefusedForEver() throws Exception {
        KafkaPipeline pipeline = pipeline(true, Map.of());
        CrawlResult page = page("app", text("x")).withFields(Map.of("seen", new Object()));

        // refusing it would stall the node and crawl the page again and again, failing each time
        assertFalse(pipeline.deliver(page).get(), "dropped, and not counted as a published page");

        assertEquals(List.of(), producer.history(), "nothing sent");
        assertEquals(1, counted("crawler.errors", "unwritable_result"));
        assertTrue(kafkaUp(), "Kafka is not to blame");
    }

    @Test
    void aFailureThatMayPassFailsTheItemSoItsLeaseExpiresAndThePageIsCrawledAgain() throws Exception {
        KafkaPipeline pipeline = pipeline(false, Map.of());

        CompletableFuture<Void> first = pipeline.process(page("app", text("x")));
        assertFalse(first.isDone(), "done only once Kafka acknowledges");
        producer.errorNext(new TimeoutException("no broker"));

        ExecutionException failed = assertThrows(ExecutionException.class, first::get);
        assertInstanceOf(KafkaPipeline.KafkaUnavailableException.class, failed.getCause());
        assertEquals(1, counted("crawler.errors", "kafka"));
        assertFalse(kafkaUp(), "the kafka health check reports the failure");

        CompletableFuture<Void> second = pipeline.process(page("app", text("x")));
        producer.completeNext();
        second.get();
        assertTrue(kafkaUp(), "up again after a send succeeds");
    }

    /** A node with no other page to publish learns that Kafka is back by asking it (KafkaPipelineOutageTest asks a real one). */
    @Test
    void afterAFailureTheHealthCheckIsUpAgainOnceKafkaSaysItHasTheFirehose() throws Exception {
        List<String> asked = new ArrayList<>();
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        kafkaSays = (topic, wait) -> {
            asked.add(topic);
            return answer;
        };
        KafkaPipeline pipeline = pipeline(false, Map.of());
        CompletableFuture<Void> item = pipeline.process(page("app", text("x")));
        producer.errorNext(new TimeoutException("no broker"));
        assertThrows(ExecutionException.class, item::get);

        assertFalse(kafkaUp());
        assertEquals(List.of("demo.crawled_firehose"), asked);
        answer.complete(true);
        assertTrue(kafkaUp(), "up again with no page published");
    }

    @Test
    void anAppTopicKafkaDoesNotTakeWhileTheFirehoseTakesThePageIsSkippedForAWhile() throws Exception {
        KafkaPipeline pipeline = pipeline(false, Map.of("KAFKA_APPID_TOPICS", true, "KAFKA_TOPIC_PREFIX", "shop"));
        CompletableFuture<Void> first = pipeline.process(page("app", text("<p>one</p>")));
        producer.completeNext();
        producer.errorNext(new TimeoutException("Topic shop.crawled_app not present in metadata after 60000 ms."));
        first.get();

        CompletableFuture<Void> second = pipeline.process(page("app", text("<p>two</p>")));
        producer.completeNext();
        second.get();

        assertEquals(List.of("shop.crawled_firehose", "shop.crawled_app", "shop.crawled_firehose"),
                producer.history().stream().map(ProducerRecord::topic).toList(),
                "the page is done, not crawled again, and the next one goes to the firehose only");
    }

    @Test
    void aFailureThatCannotPassIsCountedAndTheItemIsDone() throws Exception {
        KafkaPipeline pipeline = pipeline(false, Map.of());

        CompletableFuture<Boolean> item = pipeline.deliver(page("app", text("x")));
        producer.errorNext(new RecordTooLargeException("too large for the broker"));

        assertFalse(item.get(), "done, and not counted as a published page");
        assertEquals(1, counted("crawler.errors", "kafka"));
        assertTrue(kafkaUp(), "Kafka answered: it refused one record, and the node's readiness does not wait for the next page");
    }

    @Test
    void aRefusalOfTheNodeNotOfThePageFailsTheItemSoThePageIsCrawledAgainOnceMended() {
        KafkaPipeline pipeline = pipeline(false, Map.of());

        CompletableFuture<Boolean> item = pipeline.deliver(page("app", text("x")));
        producer.errorNext(new TopicAuthorizationException(Set.of("demo.crawled_firehose")));

        ExecutionException failed = assertThrows(ExecutionException.class, item::get);
        assertInstanceOf(KafkaPipeline.KafkaUnavailableException.class, failed.getCause(), "not dropped as a refused page is");
        assertFalse(kafkaUp(), "the kafka health check reports it");
    }

    @Test
    void aPageTheFirehoseTookIsPublishedWhenItsAppsCopyIsAbandonedByAStop() throws Exception {
        KafkaPipeline pipeline = pipeline(false, Map.of("KAFKA_APPID_TOPICS", true));
        CompletableFuture<Boolean> item = pipeline.deliver(page("app", text("x")));
        producer.completeNext();

        pipeline.close();
        producer.errorNext(new KafkaException("Producer is closed forcefully."));

        assertTrue(item.get(), "acknowledged, not crawled again into a second copy on the firehose");
    }

    @Test
    void aPageWhoseCopyOnItsAppsTopicKafkaRefusesIsPublishedOnTheFirehoseAllTheSame() throws Exception {
        KafkaPipeline pipeline = pipeline(false, Map.of("KAFKA_APPID_TOPICS", true));

        CompletableFuture<Boolean> item = pipeline.deliver(page("app", text("x")));
        producer.completeNext();
        producer.errorNext(new RecordTooLargeException("too large for the app's topic"));

        assertTrue(item.get());
        assertEquals(1, counted("crawler.errors", "kafka"));
    }

    @Test
    void aSendThatThrowsAtOnceFailsLikeOneThatFailsLater() throws Exception {
        KafkaPipeline pipeline = pipeline(true, Map.of());
        producer.sendException = new TimeoutException("metadata not available");

        ExecutionException failed = assertThrows(ExecutionException.class, () -> pipeline.process(page("app", text("x"))).get());
        assertInstanceOf(KafkaPipeline.KafkaUnavailableException.class, failed.getCause());
    }

    @Test
    void aSendAbandonedWhileClosingFailsTheItemSoItsLeaseIsNotAcknowledged() {
        KafkaPipeline pipeline = pipeline(false, Map.of());
        CompletableFuture<Void> item = pipeline.process(page("app", text("x")));

        pipeline.close();
        producer.errorNext(new KafkaException("Producer is closed forcefully."));

        ExecutionException failed = assertThrows(ExecutionException.class, item::get);
        assertInstanceOf(KafkaPipeline.KafkaUnavailableException.class, failed.getCause());
    }
}
