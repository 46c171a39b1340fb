package org.scrapycluster.common.zookeeper;

import java.util.regex.Pattern;

import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The implicit types of plain scalars as PyYAML 3.12 (the original's) resolves them, for reading and writing the domain
 * config node, so that a value means the same to a Python crawler, a Python Redis monitor and ours (docs/throttling.md,
 * "Where the limit comes from"). SnakeYAML's own rules differ from PyYAML's in a few forms, each of which meant something else
 * to the two:
 * <ul>
 *   <li>a float needs a point, and its exponent a sign: {@code 1e3}, {@code 1.5e3} and {@code 1.e5} are text, as are
 *       {@code 09} and {@code -.5} (a sign is taken before a digit only); {@code 1.5e+3} is a float;</li>
 *   <li>{@code 0b_}, {@code 0x_} and {@code ._} resolve as numbers that have no digits, which neither reader can
 *       build, so a document holding one is refused by both;</li>
 *   <li>a lone {@code =} is YAML 1.1's value key, which PyYAML's safe loader cannot build either.</li>
 * </ul>
 * The writer takes the same rules to decide what it must quote: the text {@code 1e3} is written plain, the text
 * {@code =} quoted, as PyYAML writes them.
 */
final class PyYamlResolver extends Resolver {

    // booleans, the merge key, timestamps and the value key are SnakeYAML's own rules (Resolver.BOOL, MERGE,
    // TIMESTAMP, VALUE), the same as PyYAML's; floats, integers and null are PyYAML's
    private static final Pattern FLOAT = Pattern.compile("[-+]?[0-9][0-9_]*\\.[0-9_]*(?:[eE][-+][0-9]+)?"
            + "|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
            + "|[-+]?\\.(?:inf|Inf|INF)"
            + "|\\.(?:nan|NaN|NAN)");
    private static final Pattern INT = Pattern.compile("[-+]?0b[0-1_]+"
            + "|[-+]?0[0-7_]+"
            + "|[-+]?(?:0|[1-9][0-9_]*)"
            + "|[-+]?0x[0-9a-fA-F_]+"
            + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
    private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");
    private static final Tag VALUE_TAG = new Tag(Tag.PREFIX + "value");

    /** In PyYAML's order: for a scalar starting with a digit, float is tried before int. */
    @Override
    protected void addImplicitResolvers() {
        addImplicitResolver(Tag.BOOL, Resolver.BOOL, "yYnNtTfFoO");
        addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
        addImplicitResolver(Tag.INT, INT, "-+0123456789");
        addImplicitResolver(Tag.MERGE, Resolver.MERGE, "<");
        // '\0' stands for the empty scalar: SnakeYAML tries such a rule on every scalar, and only these five match
        addImplicitResolver(Tag.NULL, NULL, "~nN\0");
        addImplicitResolver(Tag.TIMESTAMP, Resolver.TIMESTAMP, "0123456789");
        addImplicitResolver(VALUE_TAG, Resolver.VALUE, "=");
    }
}
