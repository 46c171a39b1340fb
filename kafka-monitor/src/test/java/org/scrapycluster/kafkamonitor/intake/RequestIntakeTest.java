package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.rejection.Rejection;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.testing.AnswerlessHandler;
import org.scrapycluster.kafkamonitor.testing.BrokenJarHandler;
import org.scrapycluster.kafkamonitor.testing.DeepPatternHandler;
import org.scrapycluster.kafkamonitor.testing.ObjectAttachingHandler;
import org.scrapycluster.kafkamonitor.testing.RecursingHandler;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** The decision about one record: whatever a plugin does, the record is accepted or refused, and the monitor goes on. */
class RequestIntakeTest {

    @Test
    void aPluginWhoseStackOverflowsRefusesTheRequestAlone() {
        Rejection rejection = refusal(RecursingHandler.class);

        assertEquals("The plugin RecursingHandler failed to handle the request", rejection.reason());
        assertEquals("java.lang.StackOverflowError", rejection.details().getFirst());
    }

    @Test
    void aPluginWhoseJarLacksAClassRefusesTheRequestAlone() {
        Rejection rejection = refusal(BrokenJarHandler.class);

        assertEquals("The plugin BrokenJarHandler failed to handle the request", rejection.reason());
        assertEquals("java.lang.NoClassDefFoundError: com/example/Missing", rejection.details().getFirst());
    }

    @Test
    void aPluginThatAnswersNothingRefusesTheRequestRatherThanFailingItsBatchForEver() {
        Rejection rejection = refusal(AnswerlessHandler.class);

        assertEquals("The plugin AnswerlessHandler failed to handle the request", rejection.reason());
        assertEquals("it returned no handling", rejection.details().getFirst());
    }

    @Test
    void aPluginThatAcceptsARequestItMadeUnwritableAsJsonRefusesItAloneRatherThanFailingItsBatch() {
        Rejection rejection = refusal(ObjectAttachingHandler.class);

        assertEquals("The plugin ObjectAttachingHandler failed to handle the request", rejection.reason());
        assertTrue(rejection.details().getFirst().startsWith("it left the request unwritable as JSON: "), rejection.details().toString());
    }

    @Test
    void aPluginThatFailsOnEveryRequestHasItsStackTraceWrittenOnce() {
        RequestIntake intake = intake(BrokenJarHandler.class);
        List<ILoggingEvent> logged = CapturedLog.of(RequestIntake.class.getName(), () -> {
            for (int request = 0; request < 3; request++) {
                assertInstanceOf(Disposition.Rejected.class, intake.take(("{\"uuid\":\"u" + request + "\",\"test\":\"cluster\"}")
                        .getBytes(StandardCharsets.UTF_8)));
            }
        });

        List<ILoggingEvent> loud = logged.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertEquals(1, loud.size(), "one line for three failures of one kind: " + loud);
        assertEquals("java.lang.NoClassDefFoundError", loud.getFirst().getThrowableProxy().getClassName());
    }

    @Test
    void aLongValueForAPatternThatBacktracksIsCheckedWithoutOverflowingTheStack() {
        RequestIntake intake = intake(DeepPatternHandler.class);
        String longWord = "{\"uuid\":\"u1\",\"word\":\"" + "a".repeat(200_000) + "\"}";

        assertInstanceOf(Disposition.Accepted.class, intake.take(longWord.getBytes(StandardCharsets.UTF_8)));
        assertInstanceOf(Disposition.Rejected.class, intake.take("{\"uuid\":\"u2\",\"word\":\"abc\"}".getBytes(StandardCharsets.UTF_8)));
    }

    /** How a cluster test request is refused by {@code plugin}, the only plugin. */
    private static Rejection refusal(Class<? extends KafkaMonitorPlugin> plugin) {
        Disposition disposition = intake(plugin).take("{\"uuid\":\"u1\",\"test\":\"cluster\"}".getBytes(StandardCharsets.UTF_8));

        return assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
    }

    /** The intake of a monitor with {@code plugin} its only plugin. */
    private static RequestIntake intake(Class<? extends KafkaMonitorPlugin> plugin) {
        Settings settings = Settings.load("kafka-monitor",
                new SettingsSources(null, Map.of(), Map.of("PLUGINS", "{" + plugin.getName() + ": 500}")));
        return new RequestIntake(new Json(JsonLimits.from(settings)), PluginSet.load(settings), Clock.systemUTC());
    }
}
