package org.scrapycluster.common.logging;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.Consumer;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.recovery.RecoveryListener;
import ch.qos.logback.core.recovery.ResilientOutputStreamBase;
import ch.qos.logback.core.rolling.RollingFileAppender;

/**
 * Says when the log file cannot be written (its disk full, its folder gone): Logback then drops every line and tries the
 * file again now and then, and tells only its own status list, which nobody reads, so a log could stop for minutes
 * without a word. The first failure of an outage is said on standard error, which the terminal or the supervisor
 * keeps. A full disk takes a few bytes now and then (a block's slack, another file's freed room), so the file seems
 * writable again for a moment and fails once more; the outage is taken for over only once the file has taken lines for
 * {@link #QUIET} without a failure, and then said there too, with a WARN in the file itself that marks the gap
 * (docs/operations.md "Logs").
 */
final class LogFileOutage implements RecoveryListener {

    /** How long the file must take lines without a failure for an outage to be over. */
    static final Duration QUIET = Duration.ofSeconds(10);

    private final Path file;
    private final PrintStream err;
    private final InstantSource clock;
    private final Consumer<Runnable> afterQuiet;
    private final Consumer<String> markGap;
    private Instant since;
    private String reason;
    /** Counts failures and recoveries, so that a settling that another event came after does nothing. */
    private long events;

    /**
     * @param afterQuiet runs its task {@link #QUIET} later, on a thread of its own
     * @param markGap    logs its text as a WARN, on the thread of {@code afterQuiet}
     */
    LogFileOutage(Path file, PrintStream err, InstantSource clock, Consumer<Runnable> afterQuiet, Consumer<String> markGap) {
        this.file = file;
        this.err = err;
        this.clock = clock;
        this.afterQuiet = afterQuiet;
        this.markGap = markGap;
    }

    /** Runs {@code task} after {@link #QUIET} on a virtual thread: the {@code afterQuiet} of a process's log file. */
    static void afterQuiet(Runnable task) {
        Thread.ofVirtual().name("log-file-outage").start(() -> {
            try {
                Thread.sleep(QUIET);
                task.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @Override
    public synchronized void newFailure(IOException failure) {
        events++;
        if (since != null) {
            return;
        }
        since = clock.instant();
        reason = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        err.println("Cannot write the log file " + file + ": " + reason + "; its lines are lost until it can be written again");
        err.flush();
    }

    @Override
    public synchronized void recoveryOccured() {
        if (since == null) {
            return;
        }
        Instant recovered = clock.instant();
        long event = ++events;
        afterQuiet.accept(() -> settle(event, recovered));
    }

    /**
     * Says that the outage is over, the file writable again since {@code recovered}, unless a failure or another recovery
     * came after the one of {@code event}.
     */
    private void settle(long event, Instant recovered) {
        String gap;
        synchronized (this) {
            if (event != events || since == null) {
                return;
            }
            gap = "The log file " + file + " could not be written for " + Duration.between(since, recovered).toSeconds() + " s ("
                    + reason + "): the lines logged meanwhile are lost";
            since = null;
        }
        err.println(gap);
        err.flush();
        markGap.accept(gap);
    }

    /** A rolling log file each of whose files, the first and those a roll-over opens, reports its outages to {@code outage}. */
    static final class Watched extends RollingFileAppender<ILoggingEvent> {

        private final RecoveryListener outage;

        Watched(RecoveryListener outage) {
            this.outage = outage;
        }

        @Override
        public void openFile(String name) throws IOException {
            super.openFile(name);
            if (getOutputStream() instanceof ResilientOutputStreamBase stream) {
                stream.addRecoveryListener(outage);
            }
        }
    }
}
