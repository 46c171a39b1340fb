package org.scrapycluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** CPU time by group of threads: stretches of it, their sum, and its report a page. */
class ThreadCpuTest {

    @Test
    void aStretchIsWhatEachGroupUsedInItAndANewGroupCountsWhole() {
        Map<String, Duration> used = ThreadCpu.since(Map.of("worker-#", Duration.ofMillis(300)),
                Map.of("worker-#", Duration.ofMillis(800), "fetcher-#", Duration.ofMillis(50)));

        assertEquals(Map.of("worker-#", Duration.ofMillis(500), "fetcher-#", Duration.ofMillis(50)), used);
    }

    @Test
    void threadsAreTakenOneByOneSoThatOneThatEndedTakesNothingOffItsGroup() {
        Map<String, Duration> used = ThreadCpu.byGroup(
                Map.of(1L, new ThreadCpu.ThreadTime("C# CompilerThre", Duration.ofMillis(900)),
                        2L, new ThreadCpu.ThreadTime("C# CompilerThre", Duration.ofMillis(100)),
                        3L, new ThreadCpu.ThreadTime("worker-#", Duration.ofMillis(300))),
                Map.of(2L, new ThreadCpu.ThreadTime("C# CompilerThre", Duration.ofMillis(150)),
                        3L, new ThreadCpu.ThreadTime("worker-#", Duration.ofMillis(800)),
                        4L, new ThreadCpu.ThreadTime("worker-#", Duration.ofMillis(20))));

        assertEquals(Map.of("C# CompilerThre", Duration.ofMillis(50), "worker-#", Duration.ofMillis(520)), used);
    }

    @Test
    void stretchesAddUpByGroup() {
        assertEquals(Map.of("worker-#", Duration.ofMillis(700), "fetcher-#", Duration.ofMillis(50), "gc", Duration.ofMillis(10)),
                ThreadCpu.plus(Map.of("worker-#", Duration.ofMillis(500), "fetcher-#", Duration.ofMillis(50)),
                        Map.of("worker-#", Duration.ofMillis(200), "gc", Duration.ofMillis(10))));
    }

    @Test
    void reportsMicrosecondsAPageLargestFirstWithoutTheSmallest() {
        StringWriter text = new StringWriter();

        ThreadCpu.print(new PrintWriter(text, true), "standalone CPU by thread, crawls 3 to 4",
                Map.of("fetcher-#", Duration.ofMillis(400), "worker-#", Duration.ofMillis(1_200), "timer", Duration.ofMillis(4)), 10_000);

        assertEquals("""
                standalone CPU by thread, crawls 3 to 4: 160 µs a page
                   120.0 µs  74.8%  worker-#
                    40.0 µs  24.9%  fetcher-#
                """, text.toString().replace(System.lineSeparator(), "\n"));
    }
}
