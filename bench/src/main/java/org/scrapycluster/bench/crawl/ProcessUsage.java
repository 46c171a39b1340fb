package org.scrapycluster.bench.crawl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.scrapycluster.bench.ThreadCpu;
import org.scrapycluster.bench.ThreadCpu.ThreadTime;

/**
 * What a running process has used, as Linux reports it: CPU time (user + system, from
 * {@code /proc/<pid>/stat} through {@link ProcessHandle.Info#totalCpuDuration()}) and that of each group of
 * its threads ({@code /proc/<pid>/task}), the resident set now ({@code VmRSS}) and its peak so far
 * ({@code VmHWM}) from {@code /proc/<pid>/status}, and the machine's busy share of all cores
 * ({@code /proc/stat}). A sampler thread keeps the largest {@code VmRSS} seen since the last
 * {@link #resetPeak()}. The CPU time of any process, in all and by thread ({@link #cpu(ProcessHandle)},
 * {@link #cpuByThread(ProcessHandle)}), is also read from outside this package ({@code bench outside}).
 */
public final class ProcessUsage implements AutoCloseable {

    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);
    /** Linux's {@code USER_HZ}, the unit of the times in {@code /proc}: 100 on every architecture it runs on now. */
    private static final long TICKS_PER_SECOND = 100;
    /** {@code utime}, field 14 of {@code stat}, counted from field 3, the first after the name. */
    private static final int UTIME_AFTER_NAME = 11;

    private final ProcessHandle process;
    private final Path status;
    private final AtomicLong sampledPeakKib = new AtomicLong();
    private final Thread sampler;

    ProcessUsage(ProcessHandle process) {
        this.process = process;
        this.status = Path.of("/proc", Long.toString(process.pid()), "status");
        this.sampler = Thread.ofPlatform().name("bench-rss-sampler").daemon().start(this::sample);
    }

    /** CPU time the process has used since it started. */
    Duration cpu() {
        return cpu(process);
    }

    /**
     * CPU time {@code process} has used since it started: {@code utime + stime} of {@code /proc/<pid>/stat}, as the JDK reads it.
     *
     * @throws IllegalStateException when it cannot be read, as when the process has ended
     */
    public static Duration cpu(ProcessHandle process) {
        return process.info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
                "the CPU time of process " + process.pid() + " cannot be read"));
    }

    /**
     * CPU time so far of each of the process's live threads, by thread id, with its group: its name
     * ({@code /proc/<pid>/task/<tid>/comm}, at most 15 characters) with each run of digits read as {@code #}, so that a
     * pool's threads count as one ({@link ThreadCpu#byGroup}). The JVM's own threads (compilers, garbage collector) are
     * among them.
     */
    Map<Long, ThreadTime> cpuByThread() {
        return cpuByThread(process);
    }

    /** {@link #cpuByThread()} of any process. */
    public static Map<Long, ThreadTime> cpuByThread(ProcessHandle process) {
        Map<Long, ThreadTime> threads = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(process.pid()), "task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "#");
                    threads.put(Long.parseLong(task.getFileName().toString()),
                            new ThreadTime(name, threadCpu(Files.readString(task.resolve("stat")))));
                } catch (NoSuchFileException ended) {
                    // The thread ended between the listing and the reading.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the threads of process " + process.pid(), e);
        }
        return threads;
    }

    /** User plus system time of a thread, from its {@code stat} line (fields 14 and 15, in ticks of {@value #TICKS_PER_SECOND} Hz). */
    static Duration threadCpu(String stat) {
        // The name, field 2, is in parentheses and may hold spaces; the fields after it are plain.
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(after[UTIME_AFTER_NAME]) + Long.parseLong(after[UTIME_AFTER_NAME + 1]);
        return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
    }

    /** {@code VmRSS}, in bytes. */
    long residentBytes() {
        return statusKib("VmRSS:") * 1024;
    }

    /** {@code VmHWM}, the peak resident set since the process started, in bytes. */
    long peakResidentBytes() {
        return statusKib("VmHWM:") * 1024;
    }

    /** The largest {@code VmRSS} sampled since the last reset, in bytes. */
    long sampledPeakBytes() {
        return Math.max(sampledPeakKib.get() * 1024, residentBytes());
    }

    void resetPeak() {
        sampledPeakKib.set(0);
    }

    private void sample() {
        try {
            while (process.isAlive()) {
                long kib = statusKib("VmRSS:");
                sampledPeakKib.accumulateAndGet(kib, Math::max);
                Thread.sleep(SAMPLE_EVERY);
            }
        } catch (InterruptedException | IllegalStateException e) {
            // Stopped, or the process is gone.
        }
    }

    private long statusKib(String field) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).replace("kB", "").strip());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + status + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException(status + " has no " + field + " line");
    }

    /** The machine's CPU counters (all cores, in clock ticks): busy and total, from the first line of {@code /proc/stat}. */
    record MachineTicks(long busy, long total) {

        static MachineTicks now() {
            try {
                List<String> fields = List.of(Files.readAllLines(Path.of("/proc/stat")).getFirst().strip().split("\\s+"));
                long total = 0;
                for (String field : fields.subList(1, Math.min(fields.size(), 9))) {
                    total += Long.parseLong(field);
                }
                long idle = Long.parseLong(fields.get(4)) + Long.parseLong(fields.get(5));
                return new MachineTicks(total - idle, total);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read /proc/stat", e);
            }
        }

        /** The busy share of all cores between {@code earlier} and this, from 0 to 1. */
        double busySince(MachineTicks earlier) {
            long total = this.total - earlier.total;
            return total == 0 ? 0 : (double) (busy - earlier.busy) / total;
        }
    }

    @Override
    public void close() {
        sampler.interrupt();
    }
}
