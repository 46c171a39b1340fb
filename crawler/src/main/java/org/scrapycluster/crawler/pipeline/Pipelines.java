package org.scrapycluster.crawler.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.scrapycluster.common.settings.SettingsException;

/**
 * The pipelines {@code ITEM_PIPELINES} names, in that order, found in
 * {@code META-INF/services/org.scrapycluster.crawler.pipeline.ItemPipeline}: each item goes through them
 * one after the other.
 */
public final class Pipelines implements AutoCloseable {

    private final List<ItemPipeline> stages;

    private Pipelines(List<ItemPipeline> stages) {
        this.stages = stages;
    }

    /**
     * Loads and opens the pipelines named in {@code names}.
     *
     * @throws SettingsException when a name has no pipeline
     */
    public static Pipelines open(List<String> names, PipelineContext context) {
        Map<String, ServiceLoader.Provider<ItemPipeline>> available = ServiceLoader.load(ItemPipeline.class).stream()
                .collect(Collectors.toMap(provider -> provider.get().name(), Function.identity(), (first, second) -> first));
        List<ItemPipeline> stages = new ArrayList<>();
        try {
            for (String name : names) {
                ServiceLoader.Provider<ItemPipeline> provider = available.get(name);
                if (provider == null) {
                    throw new SettingsException("ITEM_PIPELINES names '" + name + "', but there is no such pipeline; there are: "
                            + available.keySet().stream().sorted().toList());
                }
                ItemPipeline stage = provider.get();
                stage.open(context);
                stages.add(stage);
            }
        } catch (RuntimeException e) {
            stages.forEach(ItemPipeline::close);
            throw e;
        }
        return new Pipelines(List.copyOf(stages));
    }

    /** Passes {@code item} through every stage in order; completes when the last one has taken it. */
    public CompletableFuture<Void> process(CrawlResult item) {
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        for (ItemPipeline stage : stages) {
            done = done.thenCompose(previous -> stage.process(item));
        }
        return done;
    }

    /** Closes every stage, last first. */
    @Override
    public void close() {
        for (int i = stages.size() - 1; i >= 0; i--) {
            stages.get(i).close();
        }
    }
}
