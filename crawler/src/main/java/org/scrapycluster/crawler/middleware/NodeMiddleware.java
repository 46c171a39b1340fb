package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloaderMiddleware;
import org.slf4j.LoggerFactory;

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

    /**
     * Pauses {@code download}'s domain for {@code pause}, unless a pause as long or longer is in force: on this node at
     * once ({@link org.scrapycluster.crawler.scheduler.SchedulerInbox#hold}), and cluster-wide in Redis; completes once
     * Redis has answered. A pause Redis does not take is logged, and the request goes on all the same: this node still
     * keeps the pause, so a request put back is not handed out again before it ends.
     */
    protected final CompletableFuture<Void> pauseDomain(Download download, Duration pause) {
        context.scheduler().hold(download.lease().domain(), pause);
        String throttleKey = download.lease().throttle().throttleKey();
        return context.throttle().pause(download.lease().throttle(), pause).<Void>thenApply(set -> null)
                .exceptionally(failure -> {
                    LoggerFactory.getLogger(getClass()).atWarn().addKeyValue("throttle_key", throttleKey)
                            .log("Could not pause the domain: " + failure);
                    return null;
                });
    }
}
