package org.scrapycluster.common.extension;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.scrapycluster.api.ExtensionSettings;
import org.scrapycluster.common.settings.SettingDeclaration;
import org.scrapycluster.common.settings.SettingType;
import org.scrapycluster.common.settings.Settings;

/**
 * A service's settings as an extension reads them. A name the service does not declare (an extension's
 * own setting) is read from the environment variable of that name, since settings files and {@code --set}
 * accept declared names only; as a list or a map, its text is read as a declared setting's would be (comma-separated
 * or a YAML flow list, a YAML flow map).
 */
public final class SettingsView implements ExtensionSettings {

    private final Settings settings;
    private final UnaryOperator<String> environment;

    public SettingsView(Settings settings) {
        this(settings, System::getenv);
    }

    /** The view of {@code settings} that reads undeclared names from {@code environment} (null: not set). */
    SettingsView(Settings settings, UnaryOperator<String> environment) {
        this.settings = settings;
        this.environment = environment;
    }

    @Override
    public Optional<Object> value(String name) {
        if (settings.has(name)) {
            return Optional.ofNullable(settings.get(name));
        }
        return Optional.ofNullable(environment.apply(name));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when an undeclared setting's text is a malformed YAML list
     */
    @Override
    public List<String> list(String name) {
        if (settings.has(name)) {
            return ExtensionSettings.super.list(name);
        }
        return Optional.ofNullable(environment.apply(name))
                .map(text -> ((List<?>) SettingDeclaration.readUndeclared(name, SettingType.LIST, text)).stream()
                        .map(String::valueOf).toList())
                .orElse(List.of());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when an undeclared setting's text is not a YAML flow map, nor empty
     */
    @Override
    public Map<String, Object> map(String name) {
        String text = settings.has(name) ? null : environment.apply(name);
        if (text == null) {
            return ExtensionSettings.super.map(name);
        }
        if (text.isBlank()) {
            return Map.of();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) SettingDeclaration.readUndeclared(name, SettingType.MAP, text);
        return map;
    }
}
