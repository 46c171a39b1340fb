package org.scrapycluster.common.settings;

import java.util.List;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.Construct;
import org.yaml.snakeyaml.constructor.ConstructorException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
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
 *
 * <p>A number or boolean is read as one only as Java writes it back; other forms stay the text they are ({@code 1.50},
 * {@code 2e10}, {@code +7}, {@code TRUE}), so that a password or id written so is kept as written, and a setting of a
 * number or boolean type reads that text as ever. A value its explicit tag cannot read ({@code !!int x},
 * {@code !!str [a]}) is refused with its line and column, without quoting it.
 */
final class SettingsYaml {

    private SettingsYaml() {
    }

    /** A loader of settings YAML with {@code options}. */
    static Yaml loader(LoaderOptions options) {
        DumperOptions dumping = new DumperOptions();
        return new Yaml(new AsWritten(options), new Representer(dumping), dumping, options, new CoreSchema());
    }

    /** The safe constructor, but that numbers and booleans in other forms than Java's stay text. */
    private static final class AsWritten extends SafeConstructor {

        AsWritten(LoaderOptions options) {
            super(options);
            for (Tag tag : List.of(Tag.INT, Tag.FLOAT, Tag.BOOL)) {
                Construct typed = yamlConstructors.get(tag);
                yamlConstructors.put(tag, new AbstractConstruct() {
                    @Override
                    public Object construct(Node node) {
                        Object value = typed.construct(node);
                        String text = ((ScalarNode) node).getValue();
                        return String.valueOf(value).equals(text) ? value : text;
                    }
                });
            }
        }

        @Override
        protected Object constructObject(Node node) {
            try {
                return super.constructObject(node);
            } catch (MarkedYAMLException e) {
                throw e;
            } catch (RuntimeException e) { // one without a mark may quote the value (!!timestamp x: "Unexpected timestamp: x")
                throw new Unreadable(node, e);
            }
        }
    }

    /** A value its tag cannot read, as a YAML error of its line and column, not quoting it (it may be a password). */
    private static final class Unreadable extends ConstructorException {

        Unreadable(Node node, RuntimeException cause) {
            super(null, null, "a value its tag " + node.getTag() + " cannot read", node.getStartMark(), cause);
        }
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
