package org.scrapycluster.common.logging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.file.UnreadableFile;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.joran.spi.ConsoleTarget;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;

/**
 * Configures the process's logging from settings, replacing whatever Logback set up before.
 * Code logs through SLF4J as usual, adding fields with the fluent API:
 * {@code LOG.atInfo().addKeyValue("appid", appid).log("Added crawl to Redis")}.
 */
public final class Logging {

    /** How often the size of the log file is looked at. */
    private static final long SIZE_CHECK_MILLIS = 1_000;

    private Logging() {
    }

    /** One service in this process: its own code logs under its {@code LOGGER_NAME}. */
    public static void configure(Settings settings) {
        install(LogConfig.from(settings), ConsoleTarget.SystemOut);
    }

    /**
     * A client tool ({@code feed}, {@code dump}, {@code zookeeper}) run with a service's settings: as
     * {@link #configure(Settings)}, except that its records are named {@code tool} and a log file is {@code <tool>.log}
     * ({@link LogConfig#forTool}), and a log on the console goes to standard error, leaving standard output to what the
     * tool prints, for a pipe or a file (docs/operations.md, Logs).
     */
    public static void configureTool(Settings settings, String tool) {
        install(LogConfig.forTool(settings, tool), ConsoleTarget.SystemErr);
    }

    /**
     * A check of a service's settings ({@code --check}): as {@link #configure(Settings)}, warnings and errors only, since
     * what the check loads is not news.
     */
    public static void configureCheck(Settings settings) {
        install(LogConfig.from(settings).atLeast(Level.WARN), ConsoleTarget.SystemOut);
    }

    private static void install(LogConfig config, ConsoleTarget target) {
        install((LoggerContext) LoggerFactory.getILoggerFactory(), config, ServiceLoggerNames.single(config.loggerName()), target);
    }

    /**
     * Runs {@code close}, the close of an embedded Kafka broker, without the warnings the broker's own Kafka clients give
     * as it shuts down (one of them is closed twice): they are its own doing, not the user's.
     */
    public static void closingEmbeddedKafka(Runnable close) {
        errorsOnlyWhile("org.apache.kafka.clients.NetworkClient", close);
    }

    /**
     * Runs {@code action} while the library logger {@code logger} logs errors only, then gives it back the level it had:
     * for a library's warning that tells the user nothing at a moment the caller knows, such as the embedded Kafka
     * broker's shutdown.
     */
    private static void errorsOnlyWhile(String logger, Runnable action) {
        errorsOnlyWhile((LoggerContext) LoggerFactory.getILoggerFactory(), logger, action);
    }

    /** As {@link #errorsOnlyWhile(String, Runnable)}, in {@code context}. */
    static void errorsOnlyWhile(LoggerContext context, String logger, Runnable action) {
        Logger target = context.getLogger(logger);
        Level before = target.getLevel();
        target.setLevel(Level.ERROR);
        try {
            action.run();
        } finally {
            target.setLevel(before);
        }
    }

    /** Logging as {@code config} says, with {@code names} choosing each record's logger name. */
    public static void configure(LogConfig config, ServiceLoggerNames names) {
        install((LoggerContext) LoggerFactory.getILoggerFactory(), config, names);
    }

    /** As {@link #install(LoggerContext, LogConfig, ServiceLoggerNames, ConsoleTarget)}, a console log on standard output. */
    static void install(LoggerContext context, LogConfig config, ServiceLoggerNames names) {
        install(context, config, names, ConsoleTarget.SystemOut);
    }

    /**
     * Sets up {@code context}: one appender on the root logger (the console {@code target} when logging to the
     * console), the root level, the library levels, and the holding back of a library's repeated warnings
     * ({@link RepeatedMessages}).
     *
     * @throws org.scrapycluster.common.settings.SettingsException when logging to a file and {@code LOG_DIR} cannot be
     *         created, or the file cannot be opened: rather than a process that runs without any log
     */
    static void install(LoggerContext context, LogConfig config, ServiceLoggerNames names, ConsoleTarget target) {
        if (!config.stdout()) {
            createDirectory(config);
        }
        context.reset();
        Encoder<ILoggingEvent> encoder = config.json()
                ? new JsonLineEncoder(names)
                : new TextLineEncoder(names, ZoneId.systemDefault());
        encoder.setContext(context);
        encoder.start();
        Appender<ILoggingEvent> appender = config.stdout() ? console(encoder, target) : rollingFile(context, config, encoder);
        appender.setContext(context);
        appender.start();
        if (!appender.isStarted()) {
            String why = whyNotStarted(context, appender);
            throw config.stdout()
                    ? config.refusal().of("LOG_STDOUT", "is true, but the console cannot be written to: " + why)
                    : config.refusal().of("LOG_FILE", "is " + config.file() + ", but " + config.directory().resolve(config.file())
                            + " cannot be opened for writing: " + why);
        }
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(config.level());
        root.addAppender(appender);
        config.levels().forEach((logger, level) -> context.getLogger(logger).setLevel(level));
        if (config.repeatPeriod().isPositive()) {
            RepeatedMessages repeats = new RepeatedMessages(config.repeatPeriod(), System::nanoTime, context.getLogger(RepeatedMessages.class));
            repeats.setContext(context);
            repeats.start();
            context.addTurboFilter(repeats);
        }
    }

    /** Creates {@code LOG_DIR} if it is missing. */
    private static void createDirectory(LogConfig config) {
        Path directory = config.directory();
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            String where = e instanceof FileSystemException failed && failed.getFile() != null
                    && !Path.of(failed.getFile()).equals(directory) ? failed.getFile() + ": " : "";
            String reason = e instanceof NoSuchFileException ? "no such file or directory" : UnreadableFile.reason(e);
            throw config.refusal().of("LOG_DIR", "is " + directory + ", which cannot be created: " + where + reason);
        }
    }

    /** The errors {@code appender}, new, reported while starting. */
    private static String whyNotStarted(LoggerContext context, Appender<ILoggingEvent> appender) {
        List<String> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(status -> status.getLevel() == Status.ERROR && status.getOrigin() == appender)
                .map(status -> status.getThrowable() != null && status.getThrowable().getMessage() != null
                        ? status.getThrowable().getMessage() : status.getMessage())
                .distinct()
                .toList();
        return errors.isEmpty() ? "the appender did not start" : String.join("; ", errors);
    }

    private static OutputStreamAppender<ILoggingEvent> console(Encoder<ILoggingEvent> encoder, ConsoleTarget target) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setName("console");
        console.setTarget(target.getName());
        console.setEncoder(encoder);
        return console;
    }

    private static OutputStreamAppender<ILoggingEvent> rollingFile(LoggerContext context, LogConfig config, Encoder<ILoggingEvent> encoder) {
        String file = config.directory().resolve(config.file()).toString();
        LogFileOutage outage = new LogFileOutage(Path.of(file), System.err, InstantSource.system(), LogFileOutage::afterQuiet,
                gap -> context.getLogger(Logging.class).warn(gap));
        RollingFileAppender<ILoggingEvent> appender = new LogFileOutage.Watched(outage);
        appender.setName("file");
        appender.setContext(context);
        appender.setFile(file);
        appender.setEncoder(encoder);

        FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
        rolling.setContext(context);
        rolling.setParent(appender);
        rolling.setFileNamePattern(file + ".%i");
        rolling.setMinIndex(1);
        rolling.setMaxIndex(config.backups());
        rolling.start();

        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(context);
        trigger.setMaxFileSize(new FileSize(config.maxBytes()));
        // Logback looks at the size once a minute by default; a busy service writes far more than LOG_MAX_BYTES in a minute.
        trigger.setCheckIncrement(Duration.buildByMilliseconds(SIZE_CHECK_MILLIS));
        trigger.start();

        appender.setRollingPolicy(rolling);
        appender.setTriggeringPolicy(trigger);
        return appender;
    }

    /** The names for a standalone process: each service's package under its own {@code LOGGER_NAME}. */
    public static ServiceLoggerNames namesFor(String processLoggerName, Map<String, Settings> services) {
        Map<String, String> byPackage = new LinkedHashMap<>();
        byPackage.put(ServiceLoggerNames.ROOT_PACKAGE, processLoggerName);
        services.forEach((service, settings) ->
                byPackage.put(ServiceLoggerNames.packageOf(service), settings.getString(LogConfig.prefix(settings) + "LOGGER_NAME")));
        return new ServiceLoggerNames(byPackage);
    }
}
