package org.scrapycluster.bench.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/** The processes named with --pid, here this test's own JVM. */
class NamedProcessesTest {

    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void countsTheCpuEachProcessUsedSince() {
        NamedProcesses processes = NamedProcesses.of(Map.of("self", SELF));
        Map<String, Duration> before = processes.cpu();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long started = threads.getCurrentThreadCpuTime();
        while (threads.getCurrentThreadCpuTime() - started < 200_000_000L) {
            Thread.onSpinWait();
        }

        Duration used = processes.cpuSince(before).get("self");

        assertTrue(used.compareTo(Duration.ofMillis(190)) >= 0, "this thread's 200 ms are counted (to a tick of 10 ms), got " + used);
        assertEquals("self (pid " + SELF + ")", processes.describe());
    }

    @Test
    void refusesAPidThatIsNoRunningProcess() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> NamedProcesses.of(Map.of("redis", (long) Integer.MAX_VALUE)));

        assertEquals("no process " + Integer.MAX_VALUE + " runs (--pid redis=" + Integer.MAX_VALUE + ")", refused.getMessage());
    }

    @Test
    void keepsTheOrderNamed() {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("standalone", SELF);
        pids.put("redis", SELF);

        assertEquals(List.of("standalone", "redis"), List.copyOf(NamedProcesses.of(pids).cpu().keySet()));
        assertEquals("standalone", NamedProcesses.of(pids).first());
    }

    @Test
    void readsTheFirstProcesssThreadsByName() throws InterruptedException {
        Thread spinner = Thread.ofPlatform().name("spinner-17").start(() -> {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long started = threads.getCurrentThreadCpuTime();
            while (threads.getCurrentThreadCpuTime() - started < 100_000_000L) {
                Thread.onSpinWait();
            }
            LockSupport.park();
        });
        while (spinner.getState() != Thread.State.WAITING) {
            Thread.sleep(10);
        }

        Duration spun = NamedProcesses.of(Map.of("self", SELF)).cpuByThread().values().stream()
                .filter(thread -> thread.group().equals("spinner-#")).findFirst().orElseThrow().cpu();

        LockSupport.unpark(spinner);
        spinner.join();
        assertTrue(spun.compareTo(Duration.ofMillis(90)) >= 0, "the thread's 100 ms, under its name with digits as #, got " + spun);
    }
}
