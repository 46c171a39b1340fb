package org.scrapycluster.common.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closing the extensions of one kind at a stop: last first, sharing one wait, one that hangs or throws holding up none of the others. */
class ExtensionCloserTest {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionCloserTest.class);

    /** An extension whose close records its name, throws when told to, and waits for {@code release} first when given one. */
    private record Named(String name, List<String> closed, CountDownLatch release, boolean fails) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            if (release != null) {
                release.await();
            }
            closed.add(name);
            if (fails) {
                throw new AssertionError("a bug in " + name + "'s close");
            }
        }
    }

    private final ExtensionCloser<Named> closer = new ExtensionCloser<>(LOG, "test extension", Named::name);
    private final List<String> closed = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aCloseThatHangsIsLoggedAloneAndTheClosesAfterItStillReturnInTheirTime() {
        CountDownLatch release = new CountDownLatch(1);
        List<Named> extensions = List.of(new Named("first", closed, null, false), new Named("second", closed, null, false),
                new Named("hanging", closed, release, false));
        try (CapturedLog log = CapturedLog.start(ExtensionCloserTest.class, Level.WARN)) {
            closer.closeAll(extensions, Duration.ofMillis(200));

            assertEquals(List.of("second", "first"), closed, "the closes after the hanging one, which used the wait up");
            assertEquals(List.of("The test extension hanging did not close in its time; stopping without waiting for it"),
                    log.events().stream().map(event -> event.getFormattedMessage()).toList());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aCloseThatThrowsIsLoggedWithItsCauseAndTheOthersAreClosedLastFirst() {
        List<Named> extensions = List.of(new Named("first", closed, null, false), new Named("failing", closed, null, true),
                new Named("last", closed, null, false));
        try (CapturedLog log = CapturedLog.start(ExtensionCloserTest.class, Level.WARN)) {
            closer.closeAll(extensions, Duration.ofSeconds(5));

            assertEquals(List.of("last", "failing", "first"), closed);
            assertEquals(1, log.events().size(), log.lines().toString());
            assertEquals("The test extension failing failed to close; closing the others", log.events().getFirst().getFormattedMessage());
            assertTrue(log.events().getFirst().getThrowableProxy().getMessage().contains("a bug in failing's close"));
        }
    }
}
