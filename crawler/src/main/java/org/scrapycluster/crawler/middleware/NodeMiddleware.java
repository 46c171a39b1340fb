package org.scrapycluster.crawler.middleware;

import org.scrapycluster.api.DownloaderMiddleware;

/** A built-in downloader middleware, which works with parts of the node it runs in. */
public interface NodeMiddleware extends DownloaderMiddleware {

    /** Takes the node's parts; called once, after {@code configure}, before first use. */
    void open(MiddlewareContext context);
}
