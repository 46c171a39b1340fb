package org.scrapycluster.crawler.fetch;

import java.util.Locale;

/** Which {@link Fetcher} a crawler node downloads with: the {@code DOWNLOAD_CLIENT} setting. */
public enum DownloadClient {
    /** {@link HttpFetcher}, the hand-written client on Netty. */
    NETTY,
    /** {@link ReactorFetcher}, on Reactor Netty's {@code HttpClient}. */
    REACTOR;

    /**
     * The client named {@code name} ({@code netty} or {@code reactor}, any case).
     *
     * @throws IllegalArgumentException naming the accepted values when {@code name} is neither
     */
    public static DownloadClient parse(String name) {
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("DOWNLOAD_CLIENT must be netty or reactor, was '" + name + "'", e);
        }
    }
}
