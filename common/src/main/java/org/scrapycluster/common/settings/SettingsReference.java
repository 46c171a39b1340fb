package org.scrapycluster.common.settings;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Renders {@code docs/settings.md}, the reference of every setting, from the defaults files:
 * each shared file's settings, then each service's own settings and the shared defaults it
 * changes. The page is generated, never edited by hand.
 */
public final class SettingsReference {

    private SettingsReference() {
    }

    /** The Markdown page for {@code services}. */
    public static String render(List<String> services) {
        StringBuilder page = new StringBuilder();
        page.append("""
                # Settings

                <!-- Generated from config/*.yml by org.scrapycluster.common.settings.SettingsReference; do not edit.
                     Regenerate: ./mvnw -B -q -pl common -am verify -Dtest=SettingsReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.doc.write=true -->

                Every setting is declared once, with its default and a one-line description, in the YAML files
                of `config/` (packaged into the jar). A service reads its own file, `config/<service>.yml`, and the
                shared files it includes. Names and defaults follow the Python Scrapy Cluster 1.3, so an existing
                `localsettings.py` translates line by line.

                Layers, each overriding the one before:

                1. the defaults below;
                2. a local YAML file given with `--config FILE`;
                3. environment variables of the same names (booleans are `true`, `false`, `1` or `0`, any case, and empty text is
                   false; any other text is refused, which the original read as false; lists are
                   comma-separated or `[a, b]`; maps are `{key: value}`; empty text is null where null is allowed,
                   except for a string whose type says *empty kept*, where it is an empty string;
                   the Docker variable `SCHEDULER_QUEUE_TIEOUT` sets `SCHEDULER_QUEUE_TIMEOUT`);
                4. `--set NAME=VALUE` on the command line (and `--log-level`, `--log-json`, `--log-file`); the value is what follows
                   the first `=`, so it may hold more (`--set REDIS_PASSWORD=a=b`), the last `--set` of a name wins, and text without
                   a name before its `=` is a usage error (`Invalid value for option '--set' (NAME=VALUE): 'KAFKA_HOSTS' is no
                   NAME=VALUE`, exit status 2).

                Map settings merge one level deep: an override's entries are put over the defaults' entries, and
                an entry set to null stays null (`PLUGINS: {plugins.stats_handler.StatsHandler: null}` turns that
                handler off). An unknown name in the file or on the command line, or a value that does not convert
                to the setting's type, stops the service at start-up with a message naming the setting; the value is
                quoted unless the type says *secret* (a password or key). An unknown name says, when it can, the
                setting it likely misspells (`did you mean QUEUE_HITS?`), the services that declare it with its name
                scoped to one (`standalone.STANDALONE_CRAWLERS`, which any service takes and only that one applies),
                or, for a name no service declares, that an extension's own setting is read from the environment only.

                `scrapy-cluster standalone` reads every service's settings from the same layers; a name is unknown
                there only if no service declares it. So do the client tools `feed`, `dump` (the Kafka monitor's
                settings) and `zookeeper` (the Redis monitor's), which leave the other services' settings unused: one
                file serves `standalone` and the tools.
                """);
        Set<String> shared = new LinkedHashSet<>();
        services.forEach(service -> SettingsSchema.load(service).files().stream()
                .filter(file -> !file.name().equals(service)).forEach(file -> shared.add(file.name())));

        page.append("\n## Shared files\n");
        for (String name : shared) {
            SettingsFile file = fileOf(services, name);
            page.append("\n### ").append(name).append(" (`config/").append(name).append(".yml`)\n\n")
                    .append(escapeText(file.description())).append("\n\n");
            table(page, file.declarations());
        }

        page.append("\n## Services\n");
        for (String service : services) {
            SettingsSchema schema = SettingsSchema.load(service);
            SettingsFile own = schema.files().getLast();
            page.append("\n### ").append(service).append(" (`config/").append(service).append(".yml`)\n\n")
                    .append(escapeText(own.description())).append("\n\n");
            if (!own.includes().isEmpty()) {
                page.append("Includes ").append(String.join(", ", own.includes().stream().map(i -> "`" + i + "`").toList()))
                        .append(". Its own settings, and the shared defaults it changes:\n\n");
            }
            table(page, own.declarations().stream().map(d -> schema.get(d.name())).toList());
        }
        return page.toString();
    }

    private static SettingsFile fileOf(List<String> services, String name) {
        return services.stream().flatMap(service -> SettingsSchema.load(service).files().stream())
                .filter(file -> file.name().equals(name)).findFirst().orElseThrow();
    }

    private static void table(StringBuilder page, List<SettingDeclaration> declarations) {
        page.append("| Setting | Type | Default | Meaning |\n|---|---|---|---|\n");
        for (SettingDeclaration d : declarations) {
            page.append("| `").append(d.name()).append("` | ").append(d.typeName()).append(d.keepsEmpty() ? ", *empty kept*" : "")
                    .append(d.secret() ? ", *secret*" : "").append(" | ")
                    .append(cell(d.defaultValue())).append(" | ").append(escapeText(d.doc())).append(" |\n");
        }
    }

    private static String cell(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String text && text.isEmpty()) {
            return "`\"\"`";
        }
        String shown = value instanceof List<?> || value instanceof Map<?, ?> ? flowYaml(value) : String.valueOf(value);
        return "`" + escape(shown) + "`";
    }

    private static String flowYaml(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
        options.setWidth(Integer.MAX_VALUE);
        return new Yaml(options).dump(value).strip();
    }

    private static String escape(String text) {
        return text.replace("|", "\\|");
    }

    private static String escapeText(String text) {
        return escape(text).replace("<", "&lt;").replace(">", "&gt;");
    }
}
