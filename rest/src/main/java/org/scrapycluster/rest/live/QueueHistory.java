package org.scrapycluster.rest.live;

import java.util.ArrayDeque;
import java.util.Deque;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The backlog and the number of domains waiting on their throttle, as sampled at each refresh:
 * no service keeps their history, so the gateway keeps the last 24 hours of its own samples in
 * memory (at a refresh every 3 s, 28,800 samples of three numbers; at most one a second, the last, whatever
 * {@code LIVE_REFRESH_SECONDS}) and charts them; a new gateway starts with no history. Used on the live view's
 * refresh thread only.
 */
final class QueueHistory {

    private static final long KEEP_SECONDS = 86_400;
    private static final int MAX_POINTS = 150;

    private final Deque<long[]> samples = new ArrayDeque<>();

    /** Records a sample taken at {@code nowSecond}, in place of one taken earlier in that second. */
    void add(long nowSecond, long backlog, long waiting) {
        if (!samples.isEmpty() && samples.getLast()[0] == nowSecond) {
            samples.removeLast();
        }
        samples.addLast(new long[] {nowSecond, backlog, waiting});
        while (!samples.isEmpty() && samples.getFirst()[0] < nowSecond - KEEP_SECONDS) {
            samples.removeFirst();
        }
    }

    /** How many samples are kept. */
    int size() {
        return samples.size();
    }

    /** The samples of the last {@code span} seconds, at most {@value #MAX_POINTS}: the last sample of each equal slice. */
    ObjectNode chart(long span, long nowSecond) {
        long slice = Math.max(1, (span + MAX_POINTS - 1) / MAX_POINTS);
        ObjectNode chart = JsonNodeFactory.instance.objectNode();
        chart.put("span_seconds", span);
        ArrayNode times = chart.putArray("t");
        ArrayNode backlog = chart.putArray("backlog");
        ArrayNode waiting = chart.putArray("waiting");
        long lastSlice = Long.MIN_VALUE;
        for (long[] sample : samples) {
            if (sample[0] <= nowSecond - span) {
                continue;
            }
            long sampleSlice = Math.floorDiv(sample[0], slice);
            if (sampleSlice == lastSlice) {
                times.remove(times.size() - 1);
                backlog.remove(backlog.size() - 1);
                waiting.remove(waiting.size() - 1);
            }
            lastSlice = sampleSlice;
            times.add(sample[0]);
            backlog.add(sample[1]);
            waiting.add(sample[2]);
        }
        return chart;
    }
}
