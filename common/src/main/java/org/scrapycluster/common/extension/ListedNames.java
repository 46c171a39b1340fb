package org.scrapycluster.common.extension;

import java.util.HashMap;
import java.util.Map;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/**
 * The names the plugins a list setting names go by ({@code PLUGINS} of the Kafka and Redis monitors), each taken once:
 * a plugin's {@code name()} is what its statistics and log lines use, so two plugins of one name are a start-up error
 * (docs/extending.md), whichever entries of the setting made them.
 */
public final class ListedNames {

    private final Settings settings;
    private final String setting;
    private final Map<String, String> listedBy = new HashMap<>();

    /** Names of the plugins {@code setting} of {@code settings} lists. */
    public ListedNames(Settings settings, String setting) {
        this.settings = settings;
        this.setting = setting;
    }

    /**
     * Takes {@code name}, the {@code name()} of the plugin made from the entry {@code listed}.
     *
     * @throws SettingsException naming both entries when an earlier one's plugin goes by {@code name} too
     */
    public void take(String listed, String name) {
        String earlier = listedBy.putIfAbsent(name, listed);
        if (earlier != null) {
            throw settings.invalid(setting, "names both " + earlier + " and " + listed + ", and both plugins are called '" + name
                    + "', the name their statistics and log lines go by; give one a name() of its own");
        }
    }
}
