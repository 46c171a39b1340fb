package org.scrapycluster.common.settings;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The user's layers of settings: an optional override file ({@code --config}), the environment,
 * and {@code NAME=VALUE} pairs from the command line, applied in that order over the defaults.
 */
public record SettingsSources(Path overrideFile, Map<String, String> environment, Map<String, String> commandLine) {

    public SettingsSources {
        environment = Map.copyOf(environment);
        commandLine = Collections.unmodifiableMap(new LinkedHashMap<>(commandLine));
    }

    /** Defaults only: nothing from a file, the environment or the command line. */
    public static SettingsSources none() {
        return new SettingsSources(null, Map.of(), Map.of());
    }
}
