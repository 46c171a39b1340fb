package org.scrapycluster.common.extension;

import java.util.Optional;

import org.scrapycluster.api.ExtensionSettings;
import org.scrapycluster.common.settings.Settings;

/**
 * A service's settings as an extension reads them. A name the service does not declare (an extension's
 * own setting) is read from the environment variable of that name, since settings files and {@code --set}
 * accept declared names only.
 */
public final class SettingsView implements ExtensionSettings {

    private final Settings settings;

    public SettingsView(Settings settings) {
        this.settings = settings;
    }

    @Override
    public Optional<Object> value(String name) {
        if (settings.has(name)) {
            return Optional.ofNullable(settings.get(name));
        }
        return Optional.ofNullable(System.getenv(name));
    }
}
