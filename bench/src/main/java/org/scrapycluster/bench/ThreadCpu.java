package org.scrapycluster.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of a process by group of threads ({@code ProcessUsage.cpuByThread}): what a stretch of a run used, the sum of
 * several stretches, and the report of it a page, largest group first, as {@code bench crawl} and {@code bench outside}
 * print it (docs/benchmarks.md, "Where the time goes now").
 */
public final class ThreadCpu {

    /** Groups under half a microsecond a page are left out of the report. */
    private static final double SMALLEST_REPORTED_MICROS = 0.5;

    private ThreadCpu() {
    }

    /** One thread's group ({@code ProcessUsage.cpuByThread}) and CPU time so far. */
    public record ThreadTime(String group, Duration cpu) {
    }

    /**
     * The CPU time each group of threads used between {@code before} and {@code after}, two readings of a process's
     * threads by thread id, taken thread by thread: a thread born since counts whole, and one that ended since counts
     * nothing (its time since {@code before} cannot be read), rather than taking its whole life's time off its group.
     */
    public static Map<String, Duration> byGroup(Map<Long, ThreadTime> before, Map<Long, ThreadTime> after) {
        Map<String, Duration> used = new TreeMap<>();
        after.forEach((thread, now) -> {
            ThreadTime then = before.get(thread);
            // the same thread, unless its id was taken since by another (a new name, or less time than it had)
            boolean same = then != null && then.group().equals(now.group()) && then.cpu().compareTo(now.cpu()) <= 0;
            Duration earlier = same ? then.cpu() : Duration.ZERO;
            used.merge(now.group(), now.cpu().minus(earlier), Duration::plus);
        });
        return used;
    }

    /** The CPU time each process ({@code bench outside}'s named ones) used between {@code before} and {@code after}. */
    public static Map<String, Duration> since(Map<String, Duration> before, Map<String, Duration> after) {
        Map<String, Duration> used = new LinkedHashMap<>();
        after.forEach((group, cpu) -> used.put(group, cpu.minus(before.getOrDefault(group, Duration.ZERO))));
        return used;
    }

    /** Each group's CPU time in {@code a} and {@code b} together. */
    public static Map<String, Duration> plus(Map<String, Duration> a, Map<String, Duration> b) {
        Map<String, Duration> sum = new LinkedHashMap<>(a);
        b.forEach((group, cpu) -> sum.merge(group, cpu, Duration::plus));
        return sum;
    }

    /**
     * Prints {@code heading} with the total a page, then each group's µs a page and share, largest first.
     *
     * @param heading what was measured, e.g. {@code "crawler CPU by thread, rounds 13 to 24"}
     * @param pages   the pages the time was spent on
     */
    public static void print(PrintWriter out, String heading, Map<String, Duration> groups, double pages) {
        double total = groups.values().stream().mapToDouble(cpu -> micros(cpu, pages)).sum();
        out.printf(Locale.ROOT, "%s: %.0f µs a page%n", heading, total);
        groups.entrySet().stream().sorted(Map.Entry.<String, Duration>comparingByValue().reversed()).forEach(group -> {
            double micros = micros(group.getValue(), pages);
            if (micros >= SMALLEST_REPORTED_MICROS) {
                out.printf(Locale.ROOT, "  %6.1f µs  %4.1f%%  %s%n", micros, 100 * micros / total, group.getKey());
            }
        });
    }

    private static double micros(Duration cpu, double pages) {
        return cpu.toNanos() / 1e3 / pages;
    }
}
