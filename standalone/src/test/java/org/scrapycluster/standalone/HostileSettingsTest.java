package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.SettingDeclaration;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsGroup;
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

    /** The embedded servers on free ports, so that a server running on the default ones refuses nothing here. */
    private static final Map<String, String> FREE_PORTS = Map.of("STANDALONE_KAFKA_PORT", "0", "STANDALONE_ZOOKEEPER_PORT", "0",
            "STANDALONE_REDIS_PORT", "0");

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

    /**
     * The same for standalone's own settings, as its start and {@code --check} read them (the number of crawlers, then
     * the embedded servers'). The ports not under test pick free ones; a data folder is tried under {@code scratch}, so
     * that a value which makes a good folder name is created there.
     */
    @Test
    void everyStandaloneValueIsUsedOrRefusedNamingItsSetting(@TempDir Path scratch) {
        List<String> failures = new ArrayList<>();
        for (SettingDeclaration declaration : SettingsSchema.load("standalone").declarations()) {
            if (!declaration.name().startsWith("STANDALONE_")) {
                continue; // the logging and metrics settings every service has, tried above
            }
            for (String hostile : HOSTILE) {
                String value = declaration.name().equals("STANDALONE_DATA_DIR") ? scratch + "/" + hostile : hostile;
                Map<String, String> sets = new HashMap<>(FREE_PORTS);
                sets.put(declaration.name(), value);
                checkStandalone(sets).ifPresent(failures::add);
            }
        }
        assertEquals(List.of(), failures);
    }

    private static Optional<String> checkStandalone(Map<String, String> sets) {
        try {
            SettingsGroup settings = SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(null, Map.of(), sets));
            StandaloneCluster.check(settings, settings.service("standalone").getInt("STANDALONE_CRAWLERS"), List.of());
            return Optional.empty();
        } catch (SettingsException refused) {
            return refused.getMessage().lines().count() == 1 ? Optional.empty()
                    : Optional.of("standalone " + sets + ": more than one line: " + refused.getMessage());
        } catch (RuntimeException | Error e) {
            return Optional.of("standalone " + sets + ": " + e);
        }
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
