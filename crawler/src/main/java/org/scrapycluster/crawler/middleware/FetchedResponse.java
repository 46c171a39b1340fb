package org.scrapycluster.crawler.middleware;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.api.DownloadResponse;
import org.scrapycluster.crawler.fetch.FetchResult;

/** A fetch's result as a downloader middleware sees it. */
record FetchedResponse(FetchResult result) implements DownloadResponse {

    @Override
    public String url() {
        return result.url();
    }

    @Override
    public int status() {
        return result.status();
    }

    @Override
    public Map<String, List<String>> headers() {
        return result.headers().toScrapyMap();
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(result.headers().first(name));
    }

    @Override
    public boolean failed() {
        return !result.ok();
    }

    @Override
    public boolean retryable() {
        return !result.ok() && result.error().retryable();
    }

    @Override
    public Optional<String> failure() {
        return result.ok() ? Optional.empty() : Optional.of(result.error() + ": " + result.errorMessage());
    }
}
