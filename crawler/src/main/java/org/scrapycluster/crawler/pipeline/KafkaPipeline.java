package org.scrapycluster.crawler.pipeline;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.scrapycluster.api.ResultItem;
import org.scrapycluster.common.kafka.AbsentTopics;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.pipeline.ResultMessage.Omitted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes every result item on {@code <prefix>.crawled_firehose}, and on {@code <prefix>.crawled_<appid>}
 * when {@code KAFKA_APPID_TOPICS} is on (docs/compatibility.md §4.14), as a {@link ResultMessage}. The item's
 * future completes when Kafka has acknowledged every copy. A message larger than
 * {@code KAFKA_PRODUCER_MAX_REQUEST_SIZE} is not lost: it is logged, counted and sent without its body
 * ({@code body_omitted}), and without its links too ({@code links_omitted}) when that is not enough; one too large
 * even then is logged, counted and dropped ({@link FittedMessage}). When Kafka cannot take a message for a reason that may pass (broker
 * unavailable, timeout) the future fails, so that the request's lease expires and the page is crawled
 * again; a failure that cannot pass is logged and counted, and the item is done. A page dropped, by this stage or by
 * Kafka's refusal, is not counted as published ({@link #deliver}). A send the producer
 * abandons because the pipeline is closing fails the same way as one that may pass: the page was not
 * published, and the node that crawls it next publishes it. A copy on an app's topic that Kafka does not take
 * while it takes the firehose's is dropped, and that topic skipped for a while ({@link AbsentTopics}). The health
 * check {@code kafka} is down from a failure that may pass until a page is published, or Kafka says it has the
 * firehose again ({@link TopicReach}), whichever comes first; and while Kafka leaves the question whether it has the
 * firehose unanswered for the producer's {@code request.timeout.ms} (30 s) and more: a node that has no page to publish
 * learns of Kafka's outage and of its return.
 */
public final class KafkaPipeline implements NodePipeline {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaPipeline.class);
    /** Room for the record batch and record headers Kafka adds around a value. */
    private static final int RECORD_OVERHEAD = 512;

    private final Function<Settings, Producer<String, byte[]>> producers;
    private final Function<PipelineContext, TopicReach> firehoseReaches;
    private final AtomicReference<Failure> lastFailure = new AtomicReference<>();
    private Producer<String, byte[]> producer;
    private TopicReach firehoseReach;
    private Topics topics;
    private ResultMessage messages;
    private boolean appidTopics;
    private AbsentTopics absentTopics;
    private int maxMessageBytes;
    private String spiderId;
    private CrawlerMetrics metrics;
    private Clock clock;
    private volatile boolean closing;

    /**
     * The pipeline as the crawler loads it: a producer to the brokers of {@code KAFKA_HOSTS}, made once one of their names
     * resolves, and an admin client there once its health is read.
     */
    public KafkaPipeline() {
        this(settings -> new KafkaClients(settings).onceResolvable(LOG).bytesProducer(),
                context -> TopicReach.of(new KafkaClients(context.settings()), Topics.from(context.settings()).crawledFirehose(),
                        context.clock()));
    }

    /**
     * A pipeline sending through the producer {@code producers} makes from the settings when it is opened, and asking
     * whether Kafka has the firehose, while its health is read, through what {@code firehoseReaches} makes.
     */
    KafkaPipeline(Function<Settings, Producer<String, byte[]>> producers, Function<PipelineContext, TopicReach> firehoseReaches) {
        this.producers = producers;
        this.firehoseReaches = firehoseReaches;
    }

    @Override
    public String name() {
        return "kafka";
    }

    /** Its producer's settings, its topics and its messages' JSON limits, as {@link #open} reads them. */
    @Override
    public void check(Settings settings) {
        KafkaClients.check(settings);
        Topics.from(settings);
        ResultMessage.from(settings);
    }

    @Override
    public void open(PipelineContext context) {
        Settings settings = context.settings();
        spiderId = context.spiderId();
        metrics = context.metrics();
        clock = context.clock();
        topics = Topics.from(settings);
        appidTopics = settings.getBoolean("KAFKA_APPID_TOPICS");
        absentTopics = new AbsentTopics(clock);
        maxMessageBytes = (int) Math.max(1, Math.min(Integer.MAX_VALUE, new KafkaClients(settings).largestRecordBytes() - RECORD_OVERHEAD));
        messages = ResultMessage.from(settings);
        // the producer is made once a broker of KAFKA_HOSTS resolves: not ready meanwhile
        KafkaClients.checkWaitingForBrokers(context.health());
        producer = producers.apply(settings);
        firehoseReach = firehoseReaches.apply(context);
        context.health().register("kafka", this::health);
    }

    @Override
    public CompletableFuture<Void> process(ResultItem result) {
        return deliver((CrawlResult) result).thenApply(published -> null);
    }

    @Override
    public boolean publishes() {
        return true;
    }

    /**
     * Sends {@code item}'s message; completes with false when the page is dropped for good — its result cannot be
     * written as JSON, it is too large for Kafka even without its body and links, or Kafka refuses the firehose's
     * copy for a reason that cannot pass — so that the page is not counted as published.
     */
    @Override
    public CompletableFuture<Boolean> deliver(CrawlResult item) {
        FittedMessage fitted;
        try {
            fitted = fitted(item, clock.instant());
        } catch (UncheckedIOException e) {
            // a value JSON cannot write (a spider's field of a type Jackson does not know) fails every try alike
            metrics.error("unwritable_result");
            LOG.atError().addKeyValue("appid", item.appid()).addKeyValue("crawlid", item.crawlid()).addKeyValue("url", item.url())
                    .addKeyValue("reason", String.valueOf(e.getCause().getMessage()))
                    .log("The page's result cannot be written as JSON (a field the spider added?); dropping it");
            return CompletableFuture.completedFuture(false);
        }
        if (!fitted.fits()) {
            return CompletableFuture.completedFuture(false);
        }
        byte[] message = fitted.message();
        CompletableFuture<Void> firehose = send(topics.crawledFirehose(), message);
        CompletableFuture<Void> sent = appTopic(item).map(topic -> {
            CompletableFuture<Void> copy = send(topic, message);
            return firehose.thenCompose(ok -> appCopy(topic, copy));
        }).orElse(firehose);
        return sent.handle((done, failure) -> {
            if (failure == null) {
                lastFailure.set(null);
                LOG.atInfo().addKeyValue("appid", item.appid()).addKeyValue("crawlid", item.crawlid()).addKeyValue("url", item.url())
                        .addKeyValue("action", "ack").addKeyValue("success", true).addKeyValue("spiderid", spiderId)
                        .log("Sent page to Kafka");
                return true;
            }
            Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
            // once the firehose has the page, a copy its app's topic refused never has it crawled again (a duplicate there)
            boolean mayPass = firehose.isCompletedExceptionally() && (closing || !refusedForGood(cause));
            // a record Kafka refuses (too large for the topic, say) says nothing of whether Kafka can be reached
            lastFailure.set(mayPass ? new Failure(cause.toString(), clock.instant()) : null);
            metrics.error("kafka");
            LOG.atError().addKeyValue("appid", item.appid()).addKeyValue("crawlid", item.crawlid()).addKeyValue("url", item.url())
                    .addKeyValue("action", "ack").addKeyValue("success", false).addKeyValue("spiderid", spiderId)
                    .addKeyValue("exception", cause.toString()).log("Failed to send page to Kafka");
            if (mayPass) {
                throw new KafkaUnavailableException(cause);
            }
            // the copy on the app's topic was refused: the page is on the firehose all the same
            return !firehose.isCompletedExceptionally();
        });
    }

    /**
     * Whether Kafka refused this very record, which no later try would change (too large for the topic, invalid), so
     * that the page is dropped. Any other failure may pass, a refusal that is not retriable too: an authorization or
     * authentication refusal (an ACL without Write on the topic, credentials rotated) lasts until an operator mends it,
     * and the page is crawled again then instead of being thrown away meanwhile with every other.
     */
    private static boolean refusedForGood(Throwable cause) {
        return cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
                || cause instanceof InvalidRecordException;
    }

    /**
     * The page's message, without its body, then without its links too, when it would be larger than Kafka takes;
     * none when even that is too large, said and counted here.
     */
    private FittedMessage fitted(CrawlResult item, Instant now) {
        FittedMessage fitted = FittedMessage.of(messages, item, now, maxMessageBytes);
        if (fitted.omitted() == Omitted.NOTHING) {
            return fitted;
        }
        if (!fitted.fits()) {
            metrics.error("result_too_large");
            LOG.atError().addKeyValue("appid", item.appid()).addKeyValue("crawlid", item.crawlid()).addKeyValue("url", item.url())
                    .addKeyValue("body_bytes", item.body().length).addKeyValue("links", item.links().size())
                    .addKeyValue("max_bytes", maxMessageBytes)
                    .log("Page too large for Kafka even without its body and links (its attrs, headers or fields); dropping it");
            return fitted;
        }
        String without = fitted.omitted() == Omitted.BODY ? "its body" : "its body and links";
        LOG.atWarn().addKeyValue("appid", item.appid()).addKeyValue("crawlid", item.crawlid()).addKeyValue("url", item.url())
                .addKeyValue("body_bytes", item.body().length).addKeyValue("links", item.links().size())
                .addKeyValue("max_bytes", maxMessageBytes)
                .log("Page too large for Kafka; sending it without " + without);
        metrics.resultTooLarge();
        return fitted;
    }

    /** The app's own topic for its pages, when {@code KAFKA_APPID_TOPICS} is on, the appid can name one and Kafka has it. */
    private Optional<String> appTopic(CrawlResult item) {
        if (!appidTopics) {
            return Optional.empty();
        }
        try {
            String topic = topics.crawled(item.appid());
            return absentTopics.skipped(topic) ? Optional.empty() : Optional.of(topic);
        } catch (IllegalArgumentException e) {
            LOG.atWarn().addKeyValue("appid", item.appid()).log("The appid cannot name a Kafka topic; sent to the firehose only");
            return Optional.empty();
        }
    }

    /**
     * The page's copy on its app's topic, sent once the firehose has it (the copy is sent at once, only its outcome is
     * read then). A failure that may pass means Kafka does not have the topic, since it took the page on the firehose:
     * the copy is dropped, as the original's producer dropped it, instead of crawling the page again and again.
     */
    private CompletableFuture<Void> appCopy(String topic, CompletableFuture<Void> copy) {
        return copy.exceptionallyCompose(failure -> {
            Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof RetriableException && !closing) {
                absentTopics.absent(topic, cause);
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    private CompletableFuture<Void> send(String topic, byte[] message) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        try {
            // stamped with the context's clock, Redis's: a broker refuses a record stamped more than an hour ahead of its own
            producer.send(new ProducerRecord<>(topic, null, clock.millis(), null, message), (metadata, failure) -> {
                if (failure == null) {
                    sent.complete(null);
                } else {
                    sent.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException e) {
            sent.completeExceptionally(e);
        }
        return sent;
    }

    private Health health() {
        Failure failure = lastFailure.get();
        if (failure != null) {
            if (!firehoseReach.takesRecordsSince(failure.at())) {
                return Health.down(failure.reason());
            }
            lastFailure.compareAndSet(failure, null);
        }
        return firehoseReach.outOfReach().map(Health::down).orElseGet(Health::up);
    }

    @Override
    public void close() {
        close(CLOSE_WAIT);
    }

    /** Lets the producer send the pages still going out, for at most {@code wait}; those it has not sent by then fail. */
    @Override
    public void close(Duration wait) {
        closing = true;
        if (producer != null) {
            producer.close(wait);
        }
        if (firehoseReach != null) {
            firehoseReach.close();
        }
    }

    /** Why a page could not be published, and when. */
    private record Failure(String reason, Instant at) {
    }

    /** Kafka could not take a result now; the page is crawled again when its lease expires. */
    public static final class KafkaUnavailableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        KafkaUnavailableException(Throwable cause) {
            super("Kafka cannot take the result now: " + cause, cause);
        }
    }
}
