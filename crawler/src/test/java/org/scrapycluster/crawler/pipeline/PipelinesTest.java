package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The stages of {@code ITEM_PIPELINES} as a node runs them: each called on the node's workers, whichever thread
 * finished the stage before; an item a stage of the node drops not published; and every stage closed when the node
 * stops, whatever one of them throws.
 */
class PipelinesTest {

    @Test
    void aStageAfterOneThatAClientsThreadCompletesIsCalledOnTheWorkersNotOnThatThread() throws Exception {
        ThreadedPipelines.CALLED_ON.clear();
        ThreadedPipelines.PENDING.clear();
        ExecutorService workers = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("worker").factory());
        try (Pipelines pipelines = open(ThreadedPipelines.Answering.class.getName() + ": 100, "
                + ThreadedPipelines.Noting.class.getName() + ": 200")) {
            CompletableFuture<Boolean> processed = pipelines.process(null, workers); // the item does not matter to these stages
            ThreadedPipelines.completeOnClientThread();
            processed.get(1, TimeUnit.MINUTES);
        } finally {
            workers.shutdown();
        }

        assertEquals("worker", ThreadedPipelines.CALLED_ON.peek().getName(),
                "not " + ThreadedPipelines.CLIENT_THREAD + ", which a stage that blocks would hold up for every item of the node");
    }

    @Test
    void anItemAStageOfTheNodeDropsIsNotPublishedAndTheStagesAfterItTakeItAllTheSame() throws Exception {
        ThreadedPipelines.CALLED_ON.clear();
        try (Pipelines dropping = open(DroppingPipeline.class.getName() + ": 100, " + ThreadedPipelines.Noting.class.getName() + ": 200");
                Pipelines taking = open(ThreadedPipelines.Noting.class.getName() + ": 200")) {
            assertFalse(dropping.process(null, Runnable::run).get(1, TimeUnit.MINUTES));
            assertEquals(1, ThreadedPipelines.CALLED_ON.size(), "the stage after the one that dropped it took it");
            assertTrue(taking.process(null, Runnable::run).get(1, TimeUnit.MINUTES), "a stage that completes normally publishes it");
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {FilteringPipelines.Throwing.class, FilteringPipelines.Completing.class})
    void anItemAUsersStageDropsIsNeitherPublishedNorGivenToTheStagesAfterIt(Class<?> filter) throws Exception {
        ThreadedPipelines.CALLED_ON.clear();
        try (Pipelines pipelines = open(filter.getName() + ": 100, " + ThreadedPipelines.Noting.class.getName() + ": 200")) {
            assertFalse(pipelines.process(page(), Runnable::run).get(1, TimeUnit.MINUTES), "not published, and no failure");
            assertEquals(0, ThreadedPipelines.CALLED_ON.size(), "the stage after it never had it");
        }
    }

    @Test
    void anItemDroppedAfterAStageOfTheNodePublishedItCountsAsPublished() throws Exception {
        ThreadedPipelines.CALLED_ON.clear();
        try (Pipelines pipelines = open(PublishingPipeline.class.getName() + ": 100, " + FilteringPipelines.Throwing.class.getName()
                + ": 200, " + ThreadedPipelines.Noting.class.getName() + ": 300")) {
            assertTrue(pipelines.process(page(), Runnable::run).get(1, TimeUnit.MINUTES), "published before the drop");
            assertEquals(0, ThreadedPipelines.CALLED_ON.size(), "and kept from the stage after the drop");
        }
    }

    /** The {@code logging} stage only looks at an item: one a user's stage drops after it is not published. */
    @Test
    void anItemDroppedAfterTheLoggingStageIsNotPublished() throws Exception {
        try (Pipelines pipelines = open(settings(Map.of("ITEM_PIPELINES", "{logging: 100, kafka: null, "
                + FilteringPipelines.Throwing.class.getName() + ": 200}")))) {
            assertFalse(pipelines.process(page(), Runnable::run).get(1, TimeUnit.MINUTES));
        }
    }

    /**
     * A user's stage whose future fails with a class its jar lacks fails the item as its "not now", counted as its failure,
     * and not as an error of the node's own, which would end the node (docs/extending.md, "When an extension fails").
     */
    @Test
    void aStageWhoseFutureFailsToLinkFailsTheItemNotTheNode() throws Exception {
        try (Pipelines pipelines = open(UnlinkedPipeline.class.getName() + ": 100")) {
            CompletableFuture<Boolean> processed = pipelines.process(page(), Runnable::run);
            ExecutionException failed = assertThrows(ExecutionException.class, () -> processed.get(1, TimeUnit.MINUTES));
            Pipelines.PipelineFailure failure = assertInstanceOf(Pipelines.PipelineFailure.class, failed.getCause());
            assertFalse(failure.bug(), "a failed future is its \"not now\"");
            assertInstanceOf(NoClassDefFoundError.class, failure.getCause());
            assertEquals("pipeline", failure.kind());
            assertFalse(FatalExit.endsTheService(failure));
        }
    }

    @Test
    void aStageWhoseCloseThrowsDoesNotKeepTheStagesBeforeItFromClosing() {
        ClosingPipelines.CLOSED.clear();
        Pipelines pipelines = open(ClosingPipelines.Flushing.class.getName() + ": 100, " + ClosingPipelines.Unclosable.class.getName() + ": 200");

        pipelines.close();

        assertEquals(List.of("flushing"), List.copyOf(ClosingPipelines.CLOSED), "the stage before the one that threw is closed too");
    }

    /** A check closes the stages it made as a stop does: one whose close throws fails neither the check nor the others. */
    @Test
    void aCheckClosesTheStagesItMadeAsAStopDoes() {
        ClosingPipelines.CLOSED.clear();

        Pipelines.check(settings(ClosingPipelines.Flushing.class.getName() + ": 100, " + ClosingPipelines.Unclosable.class.getName()
                + ": 200"));

        assertEquals(List.of("flushing"), List.copyOf(ClosingPipelines.CLOSED));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aStageWhoseCloseNeverReturnsHoldsTheStopOnlyForItsWait() {
        ClosingPipelines.CLOSED.clear();
        Pipelines pipelines = open(ClosingPipelines.Flushing.class.getName() + ": 100, " + ClosingPipelines.Hanging.class.getName() + ": 200");
        try {
            pipelines.close(Duration.ofMillis(100));

            // the hanging stage took the whole wait: the stage before it is closed all the same, without being waited for
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ClosingPipelines.CLOSED.contains("flushing"));
        } finally {
            ClosingPipelines.RELEASE.countDown();
        }
    }

    /** The pipelines {@code entries} (name: order) name, without the built-ins. */
    private static CrawlResult page() {
        return CrawledPage.of("a").result();
    }

    private static Pipelines open(String entries) {
        return open(settings(entries));
    }

    private static Pipelines open(Settings settings) {
        return Pipelines.open(new PipelineContext(settings, "link", new CrawlerMetrics(new SimpleMeterRegistry(), "link", "n1"),
                new HealthRegistry(), Clock.systemUTC()));
    }

    /** {@code ITEM_PIPELINES} of {@code entries} alone, without the built-in stages. */
    private static Settings settings(String entries) {
        return settings(Map.of("ITEM_PIPELINES", "{logging: null, kafka: null, " + entries + "}"));
    }

    private static Settings settings(Map<String, String> values) {
        return Settings.load("crawler", new SettingsSources(null, Map.of(), values));
    }
}
