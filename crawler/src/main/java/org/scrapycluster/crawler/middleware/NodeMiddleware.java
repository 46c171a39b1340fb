package org.scrapycluster.crawler.middleware;

import org.scrapycluster.api.DownloaderMiddleware;

/** A built-in downloader middleware, which works with parts of the node it runs in. */
public abstract class NodeMiddleware implements DownloaderMiddleware {

    private MiddlewareContext context;

    /** Takes the node's parts; called once, after {@code configure}, before first use. */
    public final void open(MiddlewareContext nodeContext) {
        this.context = nodeContext;
        opened();
    }

    /** Tells the node's parts what they must know before the first request; {@link #context()} is set. */
    protected void opened() {
    }

    /** The node's parts, as {@link #open} gave them. */
    protected final MiddlewareContext context() {
        return context;
    }
}
