package org.scrapycluster.common.settings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of several services loaded together from one set of sources, as standalone runs
 * them in one JVM: a name in an override is unknown only if none of the services declares it,
 * and each service sees the overrides of the names it declares.
 */
public final class SettingsGroup {

    private final Map<String, Settings> services;

    SettingsGroup(Map<String, Settings> services) {
        this.services = Collections.unmodifiableMap(new LinkedHashMap<>(services));
    }

    /** Loads {@code services} from {@code sources}. */
    public static SettingsGroup load(List<String> services, SettingsSources sources) {
        return SettingsLoader.load(services, sources);
    }

    /** The settings of one service of the group. */
    public Settings service(String service) {
        Settings settings = services.get(service);
        if (settings == null) {
            throw new IllegalArgumentException("no settings for " + service + " in this group");
        }
        return settings;
    }

    /** The services, in the order they were loaded. */
    public List<String> services() {
        return List.copyOf(services.keySet());
    }

    /** True when a user layer set {@code name} (for whichever service declares it). */
    public boolean isUserSet(String name) {
        return services.values().stream().anyMatch(s -> s.has(name) && s.isUserSet(name));
    }

    /** A copy in which the launcher has set {@code overrides} for every service declaring them. */
    public SettingsGroup withLauncherValues(Map<String, ?> overrides) {
        Map<String, Settings> changed = new LinkedHashMap<>();
        services.forEach((name, settings) -> changed.put(name, settings.withLauncherValues(overrides)));
        return new SettingsGroup(changed);
    }
}
