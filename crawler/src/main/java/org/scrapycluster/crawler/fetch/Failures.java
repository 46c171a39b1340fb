package org.scrapycluster.crawler.fetch;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import javax.net.ssl.SSLException;

import io.netty.channel.ChannelException;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.proxy.ProxyConnectException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import org.scrapycluster.common.service.Causes;

/** Sorts the exceptions a fetch can end with into {@link FetchError} kinds. */
final class Failures {

    private Failures() {
    }

    /** Raised when a host resolves to an address the {@link AddressPolicy} refuses. */
    static final class ForbiddenAddressException extends IOException {
        private static final long serialVersionUID = 1L;

        ForbiddenAddressException(String message) {
            super(message);
        }
    }

    static FetchError classify(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof ForbiddenAddressException) {
            return FetchError.FORBIDDEN_ADDRESS;
        }
        if (cause instanceof UnknownHostException) {
            return FetchError.DNS;
        }
        if (cause instanceof ConnectTimeoutException || cause instanceof SslHandshakeTimeoutException) {
            return FetchError.CONNECT_TIMEOUT;
        }
        if (cause instanceof ProxyConnectException) {
            return cause.getMessage() != null && cause.getMessage().contains("timeout")
                    ? FetchError.CONNECT_TIMEOUT : FetchError.CONNECT_REFUSED;
        }
        if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                || cause instanceof PortUnreachableException) {
            return FetchError.CONNECT_REFUSED;
        }
        if (cause instanceof SSLException || cause instanceof NotSslRecordException) {
            return FetchError.TLS;
        }
        if (cause instanceof TooLongFrameException || cause instanceof DecoderException) {
            return FetchError.PROTOCOL;
        }
        if (cause instanceof ClosedChannelException || cause instanceof PrematureChannelClosureException
                || isReset(cause)) {
            return FetchError.RESET;
        }
        return FetchError.IO;
    }

    /**
     * A short description: the exception's class and message (for a refused address, the message says it all). A
     * channel Netty could not make names its first cause's message too, what the system refused: its own message names
     * only the channel's class, and "Too many open files" was left out.
     */
    static String describe(Throwable failure) {
        Throwable cause = unwrap(failure);
        String message = cause.getMessage();
        if (cause instanceof ForbiddenAddressException) {
            return message;
        }
        String described = cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        Throwable first = Causes.innermost(cause);
        return cause instanceof ChannelException && first != cause && first.getMessage() != null
                ? described + " (" + first.getMessage() + ")" : described;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException
                || cause instanceof DecoderException && cause.getCause() instanceof SSLException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static boolean isReset(Throwable cause) {
        if (!(cause instanceof IOException)) {
            return false;
        }
        String message = cause.getMessage() == null ? "" : cause.getMessage().toLowerCase(Locale.ROOT);
        return message.contains("reset") || message.contains("broken pipe") || message.contains("closed");
    }
}
