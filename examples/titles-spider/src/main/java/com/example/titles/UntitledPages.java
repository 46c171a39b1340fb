package com.example.titles;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a warning for every page whose result has an empty {@code title}. */
public final class UntitledPages implements ItemPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(UntitledPages.class);

    @Override
    public String name() {
        return "untitled-pages";
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        if ("".equals(item.fields().get("title"))) {
            LOG.atWarn().addKeyValue("url", item.url()).addKeyValue("crawlid", item.crawlid()).log("Page without a title");
        }
        return CompletableFuture.completedFuture(null);
    }
}
