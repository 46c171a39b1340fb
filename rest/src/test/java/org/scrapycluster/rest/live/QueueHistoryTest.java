package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The gateway's own history of the backlog: bounded by time whatever the refresh, charted by slice. */
class QueueHistoryTest {

    @Test
    void keepsOneSampleASecondTheLast() {
        QueueHistory history = new QueueHistory();
        for (int tenth = 0; tenth < 30; tenth++) { // LIVE_REFRESH_SECONDS: 0.1 for three seconds
            history.add(1_000 + tenth / 10, tenth, 0);
        }
        assertEquals(3, history.size());
        ObjectNode chart = history.chart(60, 1_002);
        assertEquals(List.of(1_000L, 1_001L, 1_002L), chart.get("t").valueStream().map(node -> node.asLong()).toList());
        assertEquals(List.of(9L, 19L, 29L), chart.get("backlog").valueStream().map(node -> node.asLong()).toList());
    }

    @Test
    void keepsADayAndChartsTheLastSampleOfEachSlice() {
        QueueHistory history = new QueueHistory();
        for (long second = 0; second <= 100_000; second += 10) {
            history.add(second, second, 1);
        }
        assertEquals(86_400 / 10 + 1, history.size(), "the samples of the last 24 hours");
        ObjectNode chart = history.chart(1_500, 100_000); // slices of 10 s
        assertEquals(150, chart.get("t").size());
        assertEquals(100_000L, chart.get("backlog").get(149).asLong());
    }
}
