package org.scrapycluster.crawler.fetch;

import io.netty.channel.Channel;

/**
 * How an exchange on a connection ends, as its {@link FetchHandler} reports it to whoever began it
 * ({@link FetchLifecycle}). Called on the connection's event loop.
 */
interface ExchangeEnd {

    /** The response is complete; the connection may carry another request when {@code keepAlive}. */
    void succeeded(FetchCall call, Channel channel, boolean keepAlive);

    /** The exchange failed; the connection is not reused. */
    void failed(FetchCall call, Channel channel, FetchError error, String message);

    /** A kept-alive connection turned out closed before any answer: the call gets one new connection. */
    void retryOnNewConnection(FetchCall call, Channel stale);
}
