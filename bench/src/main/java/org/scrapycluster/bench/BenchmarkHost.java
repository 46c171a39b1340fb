package org.scrapycluster.bench;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What a benchmark's figures depend on besides the code: the machine's cores and how busy it is.
 * Every {@code bench} command prints it before and after its run, so that a figure is never read
 * without it (a shared VM can halve its speed from one hour to the next).
 */
public final class BenchmarkHost {

    private BenchmarkHost() {
    }

    /** {@code "2 cores, load average 0.84 before the run"}. */
    public static String before() {
        return String.format(Locale.ROOT, "%d cores, load average %.2f before the run", Runtime.getRuntime().availableProcessors(),
                loadAverage());
    }

    /** {@code "load average 1.52 after the run"}. */
    public static String after() {
        return String.format(Locale.ROOT, "load average %.2f after the run", loadAverage());
    }

    /** The system load average of the last minute; negative where the platform has none. */
    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
