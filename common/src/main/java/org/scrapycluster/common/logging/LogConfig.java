package org.scrapycluster.common.logging;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

import ch.qos.logback.classic.Level;

/**
 * How a process logs, read from its settings. The crawler's settings carry an {@code SC_}
 * prefix ({@code SC_LOG_LEVEL}, ...); everyone else's have none. {@code refusal} makes the error for a logging
 * setting found unusable only when logging starts (a {@code LOG_DIR} that cannot be created).
 */
public record LogConfig(String loggerName, Path directory, String file, long maxBytes, int backups, boolean stdout,
        boolean json, Level level, Map<String, Level> levels, Duration repeatPeriod, Refusal refusal) {

    /** The error for a logging setting, named without its prefix ({@code LOG_DIR}), naming the setting and its layer. */
    @FunctionalInterface
    public interface Refusal {
        SettingsException of(String setting, String problem);
    }

    /** Logback keeps at most this many rotated files. */
    static final int MAX_BACKUPS = 20;

    /** Reads the logging settings of {@code settings}, with whichever prefix its service uses. */
    public static LogConfig from(Settings settings) {
        String p = prefix(settings);
        int backups = settings.getInt(p + "LOG_BACKUPS");
        if (backups < 1 || backups > MAX_BACKUPS) {
            throw settings.invalid(p + "LOG_BACKUPS", "is " + backups + "; it must be between 1 and " + MAX_BACKUPS);
        }
        long maxBytes = settings.getLong(p + "LOG_MAX_BYTES");
        if (maxBytes < 1) {
            throw settings.invalid(p + "LOG_MAX_BYTES", "must be at least 1");
        }
        Duration repeatPeriod = settings.getSeconds(p + "LOG_REPEAT_SECONDS");
        if (repeatPeriod.isNegative()) {
            throw settings.invalid(p + "LOG_REPEAT_SECONDS", "is negative; it must be 0 (off) or more");
        }
        Level level = level(settings, p + "LOG_LEVEL", settings.getString(p + "LOG_LEVEL"));
        Map<String, Object> defaults = Settings.defaults(settings.service()).getMap(p + "LOG_LEVELS");
        Map<String, Level> levels = new LinkedHashMap<>();
        settings.getMap(p + "LOG_LEVELS").forEach((logger, name) -> {
            Level own = level(settings, p + "LOG_LEVELS", String.valueOf(name));
            // a library left at its default is made quieter than the service, never louder: under LOG_LEVEL ERROR its
            // warnings go too, while a level set for it is kept, a louder one included
            boolean byDefault = String.valueOf(name).equals(String.valueOf(defaults.get(logger)));
            levels.put(logger, byDefault && !own.isGreaterOrEqual(level) ? level : own);
        });
        return new LogConfig(settings.getString(p + "LOGGER_NAME"), Path.of(settings.getString(p + "LOG_DIR")),
                settings.getString(p + "LOG_FILE"), maxBytes, backups, settings.getBoolean(p + "LOG_STDOUT"),
                settings.getBoolean(p + "LOG_JSON"), level, Map.copyOf(levels), repeatPeriod,
                (setting, problem) -> settings.invalid(p + setting, problem));
    }

    /**
     * The configuration of a client tool run with a service's settings ({@code dump} with the Kafka monitor's): its
     * records named {@code tool}, and a log file {@code <tool>.log}, so that they are not taken for the service's and
     * two processes never rotate one file; each only where the settings leave {@code LOGGER_NAME} and {@code LOG_FILE}
     * at their defaults.
     */
    public static LogConfig forTool(Settings settings, String tool) {
        LogConfig service = from(settings);
        String p = prefix(settings);
        return new LogConfig(settings.isUserSet(p + "LOGGER_NAME") ? service.loggerName : tool, service.directory,
                settings.isUserSet(p + "LOG_FILE") ? service.file : tool + ".log", service.maxBytes, service.backups,
                service.stdout, service.json, service.level, service.levels, service.repeatPeriod, service.refusal);
    }

    /** This configuration with every level below {@code least} (its own, and those of {@code levels}) raised to it. */
    public LogConfig atLeast(Level least) {
        Map<String, Level> raised = new LinkedHashMap<>();
        levels.forEach((logger, own) -> raised.put(logger, own.isGreaterOrEqual(least) ? own : least));
        return new LogConfig(loggerName, directory, file, maxBytes, backups, stdout, json, level.isGreaterOrEqual(least) ? level : least,
                Map.copyOf(raised), repeatPeriod, refusal);
    }

    /** {@code "SC_"} for a service logging with the crawler's setting names, else {@code ""}. */
    public static String prefix(Settings settings) {
        if (settings.has("LOG_LEVEL")) {
            return "";
        }
        if (settings.has("SC_LOG_LEVEL")) {
            return "SC_";
        }
        throw new IllegalArgumentException("the " + settings.service() + " declares no logging settings");
    }

    /** The level the original's names mean: DEBUG, INFO, WARNING or WARN, ERROR, CRITICAL (and TRACE). */
    private static Level level(Settings settings, String setting, String name) {
        return switch (name.trim().toUpperCase(Locale.ROOT)) {
            case "TRACE" -> Level.TRACE;
            case "DEBUG" -> Level.DEBUG;
            case "INFO" -> Level.INFO;
            case "WARN", "WARNING" -> Level.WARN;
            case "ERROR", "CRITICAL" -> Level.ERROR;
            case "OFF" -> Level.OFF;
            default -> throw settings.invalid(setting, "has \"" + name + "\", which is not a level;"
                    + " use DEBUG, INFO, WARNING, ERROR or CRITICAL (or TRACE, OFF)");
        };
    }
}
