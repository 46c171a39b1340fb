package org.scrapycluster.common.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.comments.CommentLine;
import org.yaml.snakeyaml.comments.CommentType;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * One defaults file of {@code config/}: the settings it declares, each with the comment line(s)
 * right above it as its doc, and the shared files it includes ({@code include: [common, ...]}).
 * A doc starting with {@code [type]} declares the type, which a null default needs; {@code [string, empty kept]}
 * declares a string whose empty text stays an empty string instead of becoming null, and a last {@code , secret}
 * ({@code [string, secret]}, {@code [map, secret]}) a setting holding a password or key, whose value no error
 * message quotes. The comment
 * lines at the top of the file, up to the last blank line before the first setting (or all of
 * them when the file starts with its {@code include}), describe the file. A setting restated without a
 * doc only changes the default of a setting an included file declares.
 */
public record SettingsFile(String name, String description, List<String> includes, List<SettingDeclaration> declarations) {

    static final Pattern SETTING_NAME = Pattern.compile("[A-Z][A-Z0-9_]*");
    private static final Pattern TYPE_TAG = Pattern.compile("^\\[([a-z]+)(, empty kept)?(, secret)?]\\s*");
    private static final String INCLUDE = "include";

    /** Parses the text of {@code config/<name>.yml}. */
    public static SettingsFile parse(String name, String text) {
        String path = "config/" + name + ".yml";
        Map<String, Object> values = loadValues(path, text);
        MappingNode root = composeWithComments(path, text);
        List<String> includes = includes(path, values.get(INCLUDE));
        List<SettingDeclaration> declarations = new ArrayList<>();
        String description = "";
        for (int i = 0; i < root.getValue().size(); i++) {
            NodeTuple tuple = root.getValue().get(i);
            String key = ((ScalarNode) tuple.getKeyNode()).getValue();
            List<String> comment = commentLines(tuple.getKeyNode());
            int blank = comment.lastIndexOf("");
            if (key.equals(INCLUDE)) {
                description = i == 0 ? String.join(" ", comment).trim() : description;
                continue;
            }
            if (i == 0) {
                description = String.join(" ", comment.subList(0, Math.max(blank, 0))).trim();
            }
            if (!SETTING_NAME.matcher(key).matches()) {
                throw new SettingsException(path + ": \"" + key + "\" is not a setting name (UPPER_SNAKE_CASE)");
            }
            String doc = String.join(" ", comment.subList(blank + 1, comment.size())).trim();
            declarations.add(declaration(path, key, doc, values.get(key)));
        }
        return new SettingsFile(name, description, includes, List.copyOf(declarations));
    }

    private static SettingDeclaration declaration(String path, String name, String doc, Object value) {
        Matcher tag = TYPE_TAG.matcher(doc);
        SettingType declared = null;
        boolean keepsEmpty = false;
        boolean secret = false;
        if (tag.find()) {
            declared = SettingType.fromTag(tag.group(1)).orElseThrow(() -> new SettingsException(
                    path + ": setting " + name + " has an unknown type tag [" + tag.group(1) + "]"));
            keepsEmpty = tag.group(2) != null;
            secret = tag.group(3) != null;
            if (keepsEmpty && declared != SettingType.STRING) {
                throw new SettingsException(path + ": setting " + name + " keeps empty text but is not a [string]");
            }
            doc = doc.substring(tag.end());
        }
        SettingType inferred = SettingType.of(value).orElse(null);
        if (value != null && inferred == null) {
            throw new SettingsException(path + ": setting " + name + " has a default of unsupported type " + value.getClass().getSimpleName());
        }
        if (declared == null && inferred == null) {
            throw new SettingsException(path + ": setting " + name + " defaults to null; its doc must start with a type tag such as [string]");
        }
        SettingType type = declared == null ? inferred : declared;
        SettingDeclaration raw = new SettingDeclaration(name, type, elementType(value), value, doc, path, keepsEmpty, secret);
        try {
            Object converted = value == null ? null : raw.fromYaml(value);
            return new SettingDeclaration(name, type, raw.elementType(), converted, doc, path, keepsEmpty, secret);
        } catch (IllegalArgumentException e) {
            throw new SettingsException(path + ": default of setting " + name + " does not fit [" + type.tag() + "]: " + e.getMessage(), e);
        }
    }

    private static SettingType elementType(Object value) {
        if (!(value instanceof List<?> items)) {
            return null;
        }
        SettingType common = null;
        for (Object item : items) {
            SettingType type = SettingType.of(item).filter(SettingType::isScalar).orElse(SettingType.STRING);
            common = common == null || common == type ? type : SettingType.STRING;
        }
        return common == null ? SettingType.STRING : common;
    }

    private static List<String> includes(String path, Object include) {
        if (include == null) {
            return List.of();
        }
        if (include instanceof List<?> names && names.stream().allMatch(String.class::isInstance)) {
            return names.stream().map(String.class::cast).toList();
        }
        throw new SettingsException(path + ": include must be a list of file names, e.g. include: [common, logging]");
    }

    private static List<String> commentLines(Node key) {
        List<String> lines = new ArrayList<>();
        for (CommentLine line : Optional.ofNullable(key.getBlockComments()).orElse(List.of())) {
            lines.add(line.getCommentType() == CommentType.BLANK_LINE ? "" : line.getValue().trim());
        }
        return lines;
    }

    private static Map<String, Object> loadValues(String path, String text) {
        Object loaded = parse(path, () -> SettingsYaml.loader(strictOptions()).load(text));
        if (!(loaded instanceof Map<?, ?> map)) {
            throw new SettingsException(path + ": expected a map of settings");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        map.forEach((key, value) -> values.put(String.valueOf(key), value));
        return values;
    }

    private static MappingNode composeWithComments(String path, String text) {
        LoaderOptions options = strictOptions();
        options.setProcessComments(true);
        return (MappingNode) parse(path, () -> SettingsYaml.loader(options).compose(new java.io.StringReader(text)));
    }

    /** Loader options for every settings file: no duplicate keys. */
    static LoaderOptions strictOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return options;
    }

    private static Object parse(String path, java.util.function.Supplier<Object> parser) {
        try {
            return parser.get();
        } catch (YAMLException e) {
            throw new SettingsException(path + ": not valid YAML: " + problemOf(e), e);
        }
    }

    /**
     * What is wrong with the YAML that {@code e} refused, and where, without the lines of it that its message quotes: a
     * settings file may hold a password on the line at fault.
     */
    static String problemOf(RuntimeException e) {
        if (e instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            Mark mark = marked.getProblemMark();
            return unquoted(marked.getProblem()) + " (line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ")";
        }
        return e.getMessage();
    }

    /** A problem SnakeYAML words with a piece of the value: an unquoted password beginning with {@code *} or {@code !}. */
    private static String unquoted(String problem) {
        if (problem.startsWith("found undefined alias")) {
            return "found an undefined alias (quote a value that begins with *)";
        }
        if (problem.startsWith("could not determine a constructor for the tag")) {
            return "found an unknown tag (quote a value that begins with !)";
        }
        return problem;
    }
}
