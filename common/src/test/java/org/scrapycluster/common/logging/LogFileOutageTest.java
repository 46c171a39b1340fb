package org.scrapycluster.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.stats.SettableClock;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.recovery.ResilientOutputStreamBase;

/** What is said when the log file cannot be written for a while: on standard error, and in the file once it can be again. */
class LogFileOutageTest {

    private static final Path FILE = Path.of("/var/log/scrapy-cluster/crawler.log");
    private static final String FAILED = "Cannot write the log file " + FILE + ": No space left on device; its lines are lost until"
            + " it can be written again";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final SettableClock clock = new SettableClock(Instant.parse("2026-12-07T12:00:00Z"));
    private final List<Runnable> afterQuiet = new ArrayList<>();
    private final List<String> marked = new ArrayList<>();
    private final LogFileOutage outage = new LogFileOutage(FILE, new PrintStream(err, true, StandardCharsets.UTF_8), clock,
            afterQuiet::add, marked::add);
    private final LoggerContext context = new LoggerContext();

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void anOutageIsSaidAsItBeginsAndItsGapOnceTheFileTookLinesForAQuietPeriod() {
        outage.newFailure(new IOException("No space left on device"));
        clock.advance(Duration.ofSeconds(41));
        outage.recoveryOccured();

        assertEquals(List.of(FAILED), said());
        afterQuiet.getFirst().run();

        String gap = "The log file " + FILE + " could not be written for 41 s (No space left on device): the lines logged"
                + " meanwhile are lost";
        assertEquals(List.of(FAILED, gap), said());
        assertEquals(List.of(gap), marked);
    }

    /** A full disk takes a few bytes now and then: each moment the file seems writable again is not the outage's end. */
    @Test
    void aFileThatFailsAgainWithinTheQuietPeriodIsOneOutage() {
        outage.newFailure(new IOException("No space left on device"));
        clock.advance(Duration.ofSeconds(2));
        outage.recoveryOccured();
        outage.newFailure(new IOException("No space left on device"));
        clock.advance(Duration.ofSeconds(5));
        outage.recoveryOccured();
        afterQuiet.forEach(Runnable::run);

        assertEquals(List.of(FAILED, "The log file " + FILE + " could not be written for 7 s (No space left on device): the lines"
                + " logged meanwhile are lost"), said());
        assertEquals(1, marked.size());
    }

    @Test
    void aFileThatNeverFailedSaysNothing() {
        outage.recoveryOccured();

        assertEquals(List.of(), afterQuiet);
        assertEquals(List.of(), said());
    }

    /** The file of a service's logging reports its stream's failures (the first, as it happens, on standard error). */
    @Test
    void theFileOfAServiceSaysWhenItCannotBeWritten() {
        context.setMDCAdapter(new LogbackMDCAdapter());
        Settings settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                Map.of("LOG_STDOUT", "false", "LOG_DIR", dir.toString())));
        LogConfig config = LogConfig.from(settings);
        PrintStream before = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            Logging.install(context, config, ServiceLoggerNames.single(config.loggerName()));
        } finally {
            System.setErr(before);
        }
        OutputStreamAppender<?> file = (OutputStreamAppender<?>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("file");

        ((ResilientOutputStreamBase) file.getOutputStream()).postIOFailure(new IOException("No space left on device"));

        assertEquals(List.of("Cannot write the log file " + dir.resolve(config.file()) + ": No space left on device; its lines are"
                + " lost until it can be written again"), said());
    }

    private List<String> said() {
        return err.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
