package org.scrapycluster.crawler.pipeline;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ResultItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs every result item, {@code Scraped page} at INFO with the item's fields but its body, links and
 * headers, {@code action: emit} and the spider (docs/compatibility.md §4.14, §7.9).
 */
public final class LoggingPipeline implements NodePipeline {

    private static final Logger LOG = LoggerFactory.getLogger(LoggingPipeline.class);

    private String spiderId;

    @Override
    public String name() {
        return "logging";
    }

    @Override
    public void open(PipelineContext context) {
        spiderId = context.spiderId();
    }

    @Override
    public CompletableFuture<Void> process(ResultItem result) {
        CrawlResult item = (CrawlResult) result;
        if (LOG.isInfoEnabled()) {
            LOG.atInfo().addKeyValue("appid", item.appid()).addKeyValue("crawlid", item.crawlid())
                    .addKeyValue("url", item.url()).addKeyValue("response_url", item.responseUrl())
                    .addKeyValue("status_code", item.statusCode()).addKeyValue("status_msg", item.statusMsg())
                    .addKeyValue("encoding", item.encoding().name()).addKeyValue("attrs", item.attrs())
                    .addKeyValue("action", "emit").addKeyValue("spiderid", spiderId).log("Scraped page");
        }
        return CompletableFuture.completedFuture(null);
    }
}
