package org.scrapycluster.crawler.middleware;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;
import org.scrapycluster.common.concurrent.Completions;
import org.scrapycluster.common.extension.ExtensionCallFailure;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.extension.OwnClassLoader;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.Fetcher;

/**
 * The downloader middlewares {@code DOWNLOADER_MIDDLEWARES} names around the fetcher: each one's
 * {@code beforeRequest} in ascending order, the fetch (or the failure a built-in ended the request with already: {@link
 * Download#failedWith}), then each one's {@code afterResponse} in descending order, a step that does not proceed ending
 * the passage. A cancelled fetch and a refused internal
 * address pass no middleware after the fetch: they are the node's own business. When a middleware's step throws
 * (an exception, or an error of its own code: {@link ExtensionFailures}), returns no future, or returns one that
 * fails or completes with no step, the passage fails with a {@link MiddlewareFailure} naming it, a {@link
 * MiddlewareFailure#bug() bug} unless the middleware failed its future itself; nothing is thrown into the thread that
 * started the passage, the node's scheduler.
 */
public final class DownloadChain {

    /**
     * How a download ended.
     *
     * @param step     the last step: {@link DownloadStep.Proceed} when every middleware handed it on
     * @param download the request as the last step left it
     * @param result   what the fetch brought, null when no fetch was made
     */
    public record Passage(DownloadStep step, Download download, FetchResult result) {
    }

    /**
     * A step of a downloader middleware failed: it threw (its cause), returned no future or completed its future with no
     * step, a bug for which the request it was working on is given up; or its future failed (its cause), and the request
     * returns to its queue when its lease expires.
     */
    public static final class MiddlewareFailure extends ExtensionCallFailure {

        private static final long serialVersionUID = 1L;

        MiddlewareFailure(String middleware, String step, String url, String what, Throwable cause, boolean bug) {
            super("middleware", "downloader middleware " + middleware + " in " + step, url, "the downloader middleware " + middleware + " " + what,
                    cause, bug);
        }
    }

    private final List<DownloaderMiddleware> middlewares;
    private final Fetcher fetcher;

    /** A chain of {@code middlewares}, in their order, around {@code fetcher}. */
    public DownloadChain(List<DownloaderMiddleware> middlewares, Fetcher fetcher) {
        this.middlewares = List.copyOf(middlewares);
        this.fetcher = fetcher;
    }

    /**
     * Loads the middlewares {@code DOWNLOADER_MIDDLEWARES} of {@code settings} names, in their order; {@link #open} makes
     * the chain of them.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when a name has no middleware
     */
    public static List<DownloaderMiddleware> middlewares(Settings settings) {
        return ExtensionLoader.of(DownloaderMiddleware.class, "downloader middlewares", settings).ordered("DOWNLOADER_MIDDLEWARES");
    }

    /** Opens the built-ins among {@code middlewares} (as {@link #middlewares} loaded them) with {@code context}, and chains them. */
    public static DownloadChain open(List<DownloaderMiddleware> middlewares, MiddlewareContext context, Fetcher fetcher) {
        for (DownloaderMiddleware middleware : middlewares) {
            if (middleware instanceof NodeMiddleware builtIn) {
                builtIn.open(context);
            }
        }
        return new DownloadChain(middlewares, fetcher);
    }

    /**
     * Takes {@code download} through the middlewares and the fetcher. Every step runs on {@code workers}: never on the
     * calling thread, the node's scheduler, which a step that blocks would otherwise hold up with every request after it,
     * nor on the thread that completes a step's answer later (the fetcher's after a robots.txt fetch, the Redis client's
     * after a pause, a library's), which it would hold up with everything that thread carries. The passage completes on
     * a worker too.
     */
    public CompletableFuture<Passage> run(Download download, Executor workers) {
        return CompletableFuture.completedFuture(download)
                .thenComposeAsync(start -> before(0, start, workers), workers)
                .thenCompose(passage -> passage.step() instanceof DownloadStep.Proceed
                        ? fetch(passage.download())
                                .thenComposeAsync(result -> after(middlewares.size() - 1, passage.download(), result, workers), workers)
                        : CompletableFuture.completedFuture(passage));
    }

    /** The fetch of {@code download}, or the failure a middleware ended it with already ({@link Download#failedWith}). */
    private CompletableFuture<FetchResult> fetch(Download download) {
        Optional<FetchResult> failed = download.failedAlready();
        return failed.isPresent() ? CompletableFuture.completedFuture(failed.get()) : fetcher.fetch(download.fetchRequest());
    }

    private CompletableFuture<Passage> before(int index, Download download, Executor workers) {
        if (index == middlewares.size()) {
            return CompletableFuture.completedFuture(new Passage(new DownloadStep.Proceed(download), download, null));
        }
        DownloaderMiddleware middleware = middlewares.get(index);
        return Completions.thenOn(step(middleware, "beforeRequest", download.url(), () -> middleware.beforeRequest(download)),
                step -> step instanceof DownloadStep.Proceed proceed
                        ? before(index + 1, Download.from(proceed.request(), middleware.name()), workers)
                        : CompletableFuture.completedFuture(ended(step, download, null, middleware)), workers);
    }

    private CompletableFuture<Passage> after(int index, Download download, FetchResult result, Executor workers) {
        if (index < 0 || result.error() == FetchError.CANCELLED || result.error() == FetchError.FORBIDDEN_ADDRESS) {
            return CompletableFuture.completedFuture(new Passage(new DownloadStep.Proceed(download), download, result));
        }
        DownloaderMiddleware middleware = middlewares.get(index);
        return Completions.thenOn(step(middleware, "afterResponse", download.url(),
                () -> middleware.afterResponse(download, new FetchedResponse(result))),
                step -> step instanceof DownloadStep.Proceed proceed
                        ? after(index - 1, Download.from(proceed.request(), middleware.name()), result, workers)
                        : CompletableFuture.completedFuture(ended(step, download, result, middleware)), workers);
    }

    /**
     * What one step of {@code middleware} for {@code url} returns, or a {@link MiddlewareFailure} naming it when the step
     * throws, returns no future, its future fails or completes with no step (null).
     */
    private static CompletableFuture<DownloadStep> step(DownloaderMiddleware middleware, String name, String url,
            Supplier<CompletableFuture<DownloadStep>> step) {
        CompletableFuture<DownloadStep> future;
        try {
            future = OwnClassLoader.call(middleware, step::get);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            return CompletableFuture.failedFuture(new MiddlewareFailure(middleware.name(), name, url, "failed in " + name + ": " + e, e, true));
        }
        if (future == null) {
            return CompletableFuture.failedFuture(new MiddlewareFailure(middleware.name(), name, url, "returned no future from " + name, null, true));
        }
        return future.exceptionallyCompose(failure -> {
            Throwable cause = Completions.cause(failure);
            return CompletableFuture.failedFuture(new MiddlewareFailure(middleware.name(), name, url, "failed in " + name + ": " + cause, cause, false));
        }).thenCompose(answer -> bugIn(answer, middleware, name, url).<CompletableFuture<DownloadStep>>map(CompletableFuture::failedFuture)
                .orElseGet(() -> CompletableFuture.completedFuture(answer)));
    }

    /**
     * What is wrong with the step a middleware's {@code name} answered, if anything: no step, or a request handed on that
     * is not the one it was given changed by its {@code with…} methods (the crawler cannot fetch or file it). Each is made
     * where it is found, so that the log tells the two apart as kinds of failure (by where they were thrown).
     */
    private static Optional<MiddlewareFailure> bugIn(DownloadStep answer, DownloaderMiddleware middleware, String name, String url) {
        if (answer == null) {
            return Optional.of(new MiddlewareFailure(middleware.name(), name, url, "completed its future from " + name + " with no step",
                    null, true));
        }
        DownloadRequest handedOn = answer instanceof DownloadStep.Proceed proceed ? proceed.request()
                : answer instanceof DownloadStep.Reschedule reschedule ? reschedule.request() : null;
        if (handedOn != null && !(handedOn instanceof Download)) {
            return Optional.of(new MiddlewareFailure(middleware.name(), name, url, "handed on a " + handedOn.getClass().getName()
                    + " from " + name + "; change the request it was given with its with… methods instead", null, true));
        }
        return Optional.empty();
    }

    private static Passage ended(DownloadStep step, Download download, FetchResult result, DownloaderMiddleware middleware) {
        if (step instanceof DownloadStep.Reschedule reschedule) {
            return new Passage(step, Download.from(reschedule.request(), middleware.name()), result);
        }
        return new Passage(step, download, result);
    }
}
