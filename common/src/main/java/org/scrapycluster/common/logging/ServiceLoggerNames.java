package org.scrapycluster.common.logging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns an SLF4J logger name into the {@code logger} a record shows: the service's
 * {@code LOGGER_NAME} for the cluster's own code (chosen by the longest matching package
 * prefix, so that in standalone each service's records carry its own name), and the library's
 * logger name for everything else.
 */
public final class ServiceLoggerNames {

    /** The package of the cluster's own code. */
    public static final String ROOT_PACKAGE = "org.scrapycluster";

    private final Map<String, String> byPackage;
    private final Map<String, String> resolved = new ConcurrentHashMap<>();

    /** {@code byPackage}: package prefix → name shown, e.g. {@code org.scrapycluster → kafka-monitor}. */
    public ServiceLoggerNames(Map<String, String> byPackage) {
        this.byPackage = Map.copyOf(byPackage);
    }

    /** Every record of the cluster's own code shows {@code loggerName}. */
    public static ServiceLoggerNames single(String loggerName) {
        return new ServiceLoggerNames(Map.of(ROOT_PACKAGE, loggerName));
    }

    /** The package of a service's code: {@code org.scrapycluster.kafkamonitor} for {@code kafka-monitor}. */
    public static String packageOf(String service) {
        return ROOT_PACKAGE + "." + service.replace("-", "");
    }

    public String nameFor(String loggerName) {
        return resolved.computeIfAbsent(loggerName, this::resolve);
    }

    private String resolve(String loggerName) {
        String best = null;
        for (String prefix : byPackage.keySet()) {
            boolean matches = loggerName.equals(prefix) || loggerName.startsWith(prefix + ".");
            if (matches && (best == null || prefix.length() > best.length())) {
                best = prefix;
            }
        }
        return best == null ? loggerName : byPackage.get(best);
    }
}
