package org.scrapycluster.common.settings;

import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * How settings are read from YAML (the defaults files, an override file, a list or map given as text): plain scalars
 * take the types of YAML 1.2's core schema, numbers without leading zeros, not YAML 1.1's, whose other forms read text
 * as something else. A password
 * {@code 0123} stays {@code 0123} (YAML 1.1 reads an octal 83), a {@code ZOOKEEPER_ID: 01} stays {@code 01},
 * {@code 1_000} and {@code 1:20} stay text (1000 and 80 in YAML 1.1), {@code LOG_LEVEL: OFF} stays {@code OFF} (false),
 * and a date stays text; {@code true}, {@code false}, decimal numbers and {@code null} are read as ever.
 */
final class SettingsYaml {

    private SettingsYaml() {
    }

    /** A loader of settings YAML with {@code options}. */
    static Yaml loader(LoaderOptions options) {
        DumperOptions dumping = new DumperOptions();
        return new Yaml(new SafeConstructor(options), new Representer(dumping), dumping, options, new CoreSchema());
    }

    /** YAML 1.2's core schema for plain scalars, but that a number has no leading zeros ({@code 0123} is text). */
    private static final class CoreSchema extends Resolver {

        private static final Pattern BOOL = Pattern.compile("true|True|TRUE|false|False|FALSE");
        private static final Pattern INT = Pattern.compile("[-+]?(?:0|[1-9][0-9]*)");
        private static final Pattern FLOAT = Pattern.compile("[-+]?(?:\\.[0-9]+|(?:0|[1-9][0-9]*)(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                + "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");
        private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");

        /** An integer before a float, whose pattern matches it too. */
        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, BOOL, "tTfF");
            addImplicitResolver(Tag.INT, INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
            // '\0' stands for the empty scalar, which SnakeYAML tries such a rule on
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
        }
    }
}
