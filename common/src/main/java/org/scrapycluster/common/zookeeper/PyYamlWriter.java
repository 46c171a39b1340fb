package org.scrapycluster.common.zookeeper;

import java.io.StringReader;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.scrapycluster.common.json.PythonNumbers;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The one writer of the ZooKeeper domain config YAML ({@link DomainConfigYaml} is its reader): the original's bytes,
 * block style, keys sorted ({@code blacklist} before {@code domains}; {@code hits}, {@code scale}, {@code window} in
 * an entry), empty collections as {@code []} / {@code {}}, whole numbers as integers and floats as Python writes them.
 */
final class PyYamlWriter {

    /** Text SnakeYAML's emitter quotes as a number with a leading zero, whatever its resolver says: {@code 09}, {@code 0_1}. */
    private static final Pattern LEADING_ZERO_DIGITS = Pattern.compile("0[0-9_]+");
    /** The line length of Python's {@code base64.encodebytes}, which PyYAML writes {@code !!binary} with. */
    private static final int BASE64_LINE = 76;

    private PyYamlWriter() {
    }

    /**
     * The YAML text of a document as {@link DomainConfigYaml#documentReader()} builds it ({@link DomainConfigDocument}), byte for byte as
     * the original Redis monitor writes the same document with PyYAML's {@code safe_dump}: block style, indent 2, the
     * keys of every mapping sorted when they are all text (PyYAML leaves keys it cannot compare in their order), text
     * holding anything but printable ASCII double-quoted, with that escaped as PyYAML escapes it ({@code \xFC},
     * {@code \U0001F600}, {@code \x01}: hex in upper case; text, never {@code !!binary}), multi-line text quoted, text
     * quoted only where PyYAML would read it as something else ({@link PyYamlResolver}), timestamps as Python writes
     * its dates and times, {@code !!binary} in Python's base64 lines.
     */
    static String write(Map<?, ?> document) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setAllowUnicode(false);
        options.setNonPrintableStyle(DumperOptions.NonPrintableStyle.ESCAPE);
        options.setLineBreak(DumperOptions.LineBreak.UNIX);
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()), new PythonStyleRepresenter(options), options, new PyYamlResolver());
        return asPyYamlQuotes(yaml.dump(document));
    }

    /**
     * {@code yaml} with its quoted scalars as PyYAML's emitter writes them, where SnakeYAML's differs: text of digits
     * with a leading zero that PyYAML reads as text ({@code 09}) plain, where SnakeYAML quotes it ({@code '09'}) lest a
     * YAML 1.2 reader take it for a number; double-quoted text with its escapes in upper case ({@code \xFC}, not
     * {@code \xfc}) and folded where PyYAML folds it ({@link PyYamlDoubleQuoted}). The text of every other scalar is
     * left as it is.
     */
    private static String asPyYamlQuotes(String yaml) {
        StringBuilder written = new StringBuilder(yaml.length());
        Resolver resolver = new PyYamlResolver();
        int copied = 0;
        for (Event event : new Yaml().parse(new StringReader(yaml))) {
            if (!(event instanceof ScalarEvent scalar)) {
                continue;
            }
            // the text is ASCII (allowUnicode is off), so the marks' code point indexes are char indexes
            int start = scalar.getStartMark().getIndex();
            int end = scalar.getEndMark().getIndex();
            if (scalar.getScalarStyle() == DumperOptions.ScalarStyle.DOUBLE_QUOTED) {
                int quote = yaml.indexOf('"', start); // after the tag, if any (!!binary "")
                written.append(yaml, copied, quote);
                written.append(refolded(scalar.getValue(), yaml.substring(quote, end), written.length() - written.lastIndexOf("\n") - 1));
                copied = end;
            } else if (scalar.getScalarStyle() == DumperOptions.ScalarStyle.SINGLE_QUOTED
                    && LEADING_ZERO_DIGITS.matcher(scalar.getValue()).matches()
                    && resolver.resolve(NodeId.scalar, scalar.getValue(), true).equals(Tag.STR)) {
                written.append(yaml, copied, start).append(scalar.getValue());
                copied = end;
            }
        }
        return written.append(yaml, copied, yaml.length()).toString();
    }

    /**
     * A double-quoted scalar that SnakeYAML wrote as {@code snakeYaml}, written anew from {@code column} as PyYAML
     * writes {@code value}. It folds only where SnakeYAML folded too (never a simple key): SnakeYAML tests every place
     * PyYAML tests, with at least as many columns written, so it folds wherever PyYAML does, and the first of its
     * continuation lines gives their indent.
     */
    private static String refolded(String value, String snakeYaml, int column) {
        int fold = snakeYaml.indexOf("\\\n");
        if (fold < 0) {
            return PyYamlDoubleQuoted.write(value, column, 0, false);
        }
        int indent = 0;
        while (snakeYaml.charAt(fold + 2 + indent) == ' ') {
            indent++;
        }
        return PyYamlDoubleQuoted.write(value, column, indent, true);
    }

    /** Represents doubles as PyYAML writes Python floats, and mappings with their keys sorted as PyYAML sorts them. */
    private static final class PythonStyleRepresenter extends Representer {

        /** The characters that break a line for PyYAML's emitter. */
        private static final Pattern LINE_BREAK = Pattern.compile("[\\n\\u0085\\u2028\\u2029]");

        PythonStyleRepresenter(DumperOptions options) {
            super(options);
            // PyYAML's emitter quotes multi-line text, single quotes where it can; SnakeYAML's writes it plain or literal
            this.representers.put(String.class, data -> representScalar(Tag.STR, (String) data,
                    LINE_BREAK.matcher((String) data).find() ? DumperOptions.ScalarStyle.SINGLE_QUOTED : DumperOptions.ScalarStyle.PLAIN));
            this.representers.put(Double.class, data -> representScalar(Tag.FLOAT, PythonNumbers.yaml((Double) data)));
            this.representers.put(PythonTimestamp.class, data -> representScalar(Tag.TIMESTAMP, ((PythonTimestamp) data).text()));
            // base64.encodebytes: lines of 76 characters, each ended by a line break, in literal style
            this.representers.put(byte[].class, data -> {
                byte[] bytes = (byte[]) data;
                String base64 = bytes.length == 0 ? "" : Base64.getMimeEncoder(BASE64_LINE, new byte[] {'\n'}).encodeToString(bytes) + "\n";
                return representScalar(Tag.BINARY, base64, DumperOptions.ScalarStyle.LITERAL);
            });
        }

        @Override
        protected Node representMapping(Tag tag, Map<?, ?> mapping, DumperOptions.FlowStyle flowStyle) {
            if (!mapping.keySet().stream().allMatch(String.class::isInstance)) {
                return super.representMapping(tag, mapping, flowStyle);
            }
            Map<Object, Object> sorted = new LinkedHashMap<>();
            mapping.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey(Comparator.comparing(key -> ((String) key).codePoints().toArray(), Arrays::compare)))
                    .forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
            return super.representMapping(tag, sorted, flowStyle);
        }
    }
}
