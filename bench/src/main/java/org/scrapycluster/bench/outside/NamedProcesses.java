package org.scrapycluster.bench.outside;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.scrapycluster.bench.ThreadCpu;
import org.scrapycluster.bench.ThreadCpu.ThreadTime;
import org.scrapycluster.bench.crawl.ProcessUsage;

/** The processes named with {@code --pid NAME=PID}, in the order named, and the CPU time each has used. */
final class NamedProcesses {

    private final Map<String, ProcessHandle> processes;

    private NamedProcesses(Map<String, ProcessHandle> processes) {
        this.processes = processes;
    }

    /**
     * The running processes of {@code pids}, by name.
     *
     * @throws IllegalArgumentException when a pid is no running process
     */
    static NamedProcesses of(Map<String, Long> pids) {
        Map<String, ProcessHandle> processes = new LinkedHashMap<>();
        pids.forEach((name, pid) -> processes.put(name, ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .orElseThrow(() -> new IllegalArgumentException("no process " + pid + " runs (--pid " + name + "=" + pid + ")"))));
        return new NamedProcesses(processes);
    }

    /** The CPU time each process has used since it started ({@link ProcessUsage#cpu(ProcessHandle)}). */
    Map<String, Duration> cpu() {
        Map<String, Duration> cpu = new LinkedHashMap<>();
        processes.forEach((name, process) -> cpu.put(name, ProcessUsage.cpu(process)));
        return cpu;
    }

    /** The CPU time each process has used since {@code before}, what {@link #cpu()} gave then. */
    Map<String, Duration> cpuSince(Map<String, Duration> before) {
        return ThreadCpu.since(before, cpu());
    }

    /** The name given first, whose threads {@link #cpuByThread()} reads. */
    String first() {
        return processes.keySet().iterator().next();
    }

    /** The CPU time of the {@link #first()} process by group of its threads ({@link ProcessUsage#cpuByThread(ProcessHandle)}). */
    Map<Long, ThreadTime> cpuByThread() {
        return ProcessUsage.cpuByThread(processes.get(first()));
    }

    /** {@code "standalone (pid 4711), redis (pid 4712)"}. */
    String describe() {
        return processes.entrySet().stream().map(process -> process.getKey() + " (pid " + process.getValue().pid() + ")")
                .collect(Collectors.joining(", "));
    }
}
