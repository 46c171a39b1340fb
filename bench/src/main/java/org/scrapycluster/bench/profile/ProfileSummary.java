package org.scrapycluster.bench.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The flame graph of a recording reduced to what a table can hold: each Java thread's share of the CPU of the
 * process's Java threads ({@code jdk.ThreadCPULoad}, threads numbered alike counted as one; the garbage
 * collector's threads are not Java threads and are not in it), and for the sampled Java stacks
 * ({@code jdk.ExecutionSample}) of the threads asked for, the methods by share of samples they are on
 * (inclusive) and on top of (self). Only the part of the recording after {@code skip} of its length counts,
 * so that a run's JIT warm-up can be left out.
 */
public final class ProfileSummary {

    /** A name and its share, in percent. */
    public record Share(String name, double percent) {
    }

    private final Map<String, Double> threadCpu = new HashMap<>();
    private final Map<String, Integer> inclusive = new HashMap<>();
    private final Map<String, Integer> self = new HashMap<>();
    private int samples;

    private ProfileSummary() {
    }

    /**
     * Reads {@code recording}.
     *
     * @param skip    the share (0 to 1) of the recording's length, from its start, that does not count
     * @param threads which threads' samples count, by name
     */
    public static ProfileSummary read(Path recording, double skip, Pattern threads) throws IOException {
        List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
        Instant start = events.stream().map(RecordedEvent::getStartTime).min(Instant::compareTo).orElse(Instant.EPOCH);
        Instant end = events.stream().map(RecordedEvent::getEndTime).max(Instant::compareTo).orElse(Instant.EPOCH);
        Instant from = start.plusMillis((long) ((end.toEpochMilli() - start.toEpochMilli()) * skip));
        ProfileSummary summary = new ProfileSummary();
        for (RecordedEvent event : events) {
            if (event.getStartTime().isBefore(from)) {
                continue;
            }
            switch (event.getEventType().getName()) {
                case "jdk.ThreadCPULoad" -> summary.threadCpu.merge(threadName(event.getThread()),
                        event.getFloat("user") + (double) event.getFloat("system"), Double::sum);
                case "jdk.ExecutionSample" -> summary.sample(event, threads);
                default -> {
                }
            }
        }
        return summary;
    }

    private void sample(RecordedEvent event, Pattern threads) {
        RecordedThread thread = event.getThread("sampledThread");
        if (event.getStackTrace() == null || thread == null || !threads.matcher(String.valueOf(thread.getJavaName())).find()) {
            return;
        }
        List<RecordedFrame> frames = event.getStackTrace().getFrames();
        if (frames.isEmpty()) {
            return;
        }
        samples++;
        self.merge(method(frames.getFirst()), 1, Integer::sum);
        Set<String> seen = new HashSet<>();
        for (RecordedFrame frame : frames) {
            String method = method(frame);
            // a lambda's hidden class is a step through to its body, which has a frame of its own
            if (!method.contains("$$Lambda") && seen.add(method)) {
                inclusive.merge(method, 1, Integer::sum);
            }
        }
    }

    /** The threads by share of the process's CPU, largest first; pools of numbered threads as one. */
    public List<Share> threads(int most) {
        double total = threadCpu.values().stream().mapToDouble(Double::doubleValue).sum();
        return top(threadCpu, total, most);
    }

    /** The methods the sampled threads were in, by share of samples, largest first. */
    public List<Share> inclusive(int most, Pattern methods) {
        Map<String, Integer> kept = new HashMap<>();
        inclusive.forEach((method, count) -> {
            if (methods.matcher(method).find()) {
                kept.put(method, count);
            }
        });
        return top(kept, samples, most);
    }

    /** The methods on top of the sampled stacks, by share of samples, largest first. */
    public List<Share> self(int most) {
        return top(self, samples, most);
    }

    /** The number of stacks that count. */
    public int samples() {
        return samples;
    }

    private static List<Share> top(Map<String, ? extends Number> counts, double total, int most) {
        List<Share> shares = new ArrayList<>();
        counts.forEach((name, count) -> shares.add(new Share(shortName(name), total == 0 ? 0 : 100 * count.doubleValue() / total)));
        shares.sort((a, b) -> Double.compare(b.percent(), a.percent()));
        return shares.subList(0, Math.min(most, shares.size()));
    }

    private static String threadName(RecordedThread thread) {
        String name = thread == null ? "?" : String.valueOf(thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName());
        return name.replaceAll("\\d+", "#");
    }

    private static String method(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        return method == null ? "?" : method.getType().getName() + "." + method.getName();
    }

    /** {@code Class.method} of {@code package.Class.method}; thread names stay whole. */
    private static String shortName(String name) {
        int method = name.lastIndexOf('.');
        int type = method < 0 ? -1 : name.lastIndexOf('.', method - 1);
        return type < 0 || name.indexOf(' ') >= 0 ? name : name.substring(type + 1);
    }
}
