package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.SettingDeclaration;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSchema;
import org.scrapycluster.common.settings.SettingsSources;

/**
 * Every setting of every service, given values a user may get wrong on the command line or in the environment (where
 * lists are comma-separated and booleans may be 1 or 0), is either used or refused with a settings error
 * naming it (status 2 and one line), never another exception: what each service's check ({@code --check}, and a
 * {@code standalone} start before it starts anything) reads.
 */
class HostileSettingsTest {

    private static final List<String> HOSTILE = List.of("-1", "0", "", " ", "(", "[(]", "{a: (}", "-0.5", "1e308", "99999999999",
            "http://", "x:y:z", "\u0000", "é", "{acks: banana}");

    /** Settings that turn on the paths the values may reach: throttle keys by IP and type, the statistics dumps. */
    private static final Map<String, String> PATHS_ON = Map.of("SCHEDULER_IP_ENABLED", "true", "SCHEDULER_TYPE_ENABLED", "true",
            "STATS_DUMP", "5", "BACKLOG_METRICS_PERIOD", "5");

    @Test
    void everyValueIsUsedOrRefusedNamingItsSetting() {
        List<String> failures = new ArrayList<>();
        for (ServiceFactory factory : StandaloneCommand.serviceFactories()) {
            SettingsSchema schema = SettingsSchema.load(factory.name());
            for (SettingDeclaration declaration : schema.declarations()) {
                for (String value : HOSTILE) {
                    Map<String, String> sets = new HashMap<>();
                    PATHS_ON.forEach((name, on) -> schema.find(name).ifPresent(found -> sets.put(name, on)));
                    check(factory, sets, Map.of(declaration.name(), value)).ifPresent(failures::add);
                    sets.put(declaration.name(), value);
                    check(factory, sets, Map.of()).ifPresent(failures::add);
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    /** What went wrong other than a settings error, if anything, with {@code environment} and {@code sets} (the command line). */
    private static Optional<String> check(ServiceFactory factory, Map<String, String> sets, Map<String, String> environment) {
        try {
            factory.check(Settings.load(factory.name(), new SettingsSources(null, environment, sets)));
            return Optional.empty();
        } catch (SettingsException refused) {
            return refused.getMessage().lines().count() == 1 ? Optional.empty()
                    : Optional.of(factory.name() + " " + sets + " " + environment + ": more than one line: " + refused.getMessage());
        } catch (RuntimeException | Error e) {
            return Optional.of(factory.name() + " " + sets + " " + environment + ": " + e);
        }
    }
}
