package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;

import io.netty.channel.ChannelException;
import org.junit.jupiter.api.Test;

/** How the failures a fetch can end with are named and described. */
class FailuresTest {

    /**
     * Out of file descriptors, Netty cannot make a socket's channel, and says only which class it could not make; the
     * system's own words come with it (a walk with {@code ulimit -n 384} saw the first alone).
     */
    @Test
    void aChannelThatCouldNotBeMadeIsDescribedWithWhatTheSystemRefused() {
        Throwable failure = new CompletionException(new ChannelException("Unable to create Channel from class EpollSocketChannel",
                new InvocationTargetException(new ChannelException("Failed to open a socket.",
                        new IOException("newSocketStream(..) failed: Too many open files")))));

        assertEquals(FetchError.IO, Failures.classify(failure));
        assertEquals("ChannelException: Unable to create Channel from class EpollSocketChannel"
                + " (newSocketStream(..) failed: Too many open files)", Failures.describe(failure));
    }

    @Test
    void anotherFailureIsItsClassAndMessage() {
        Throwable failure = new CompletionException(new IOException("Connection reset by peer", new IOException("underneath")));

        assertEquals(FetchError.RESET, Failures.classify(failure));
        assertEquals("IOException: Connection reset by peer", Failures.describe(failure));
    }
}
