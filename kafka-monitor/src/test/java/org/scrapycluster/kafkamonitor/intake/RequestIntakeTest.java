package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.rejection.Rejection;
import org.scrapycluster.kafkamonitor.testing.RecursingHandler;

/** The decision about one record: whatever a plugin does, the record is accepted or refused, and the monitor goes on. */
class RequestIntakeTest {

    @Test
    void aPluginWhoseStackOverflowsRefusesTheRequestAlone() {
        Settings settings = Settings.load("kafka-monitor",
                new SettingsSources(null, Map.of(), Map.of("PLUGINS", "{" + RecursingHandler.class.getName() + ": 500}")));
        RequestIntake intake = new RequestIntake(new Json(JsonLimits.from(settings)), PluginSet.load(settings), Clock.systemUTC());

        Disposition disposition = intake.take("{\"uuid\":\"u1\",\"test\":\"cluster\"}".getBytes(StandardCharsets.UTF_8));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
        assertEquals("The plugin RecursingHandler failed to handle the request", rejection.reason());
        assertEquals("java.lang.StackOverflowError", rejection.details().getFirst());
    }
}
