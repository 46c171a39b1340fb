package org.scrapycluster.standalone.acceptance;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.Yaml;

/**
 * The PromQL expressions of {@code deploy/monitoring/} (the Grafana dashboard's targets and the
 * Prometheus alert rules), the metric names they read (every identifier that is not a function,
 * keyword, label name, label value, range or number) and the label names they, their legends and
 * their alerts' annotations use.
 */
final class MonitoringQueries {

    static final Path MONITORING = Path.of("..", "deploy", "monitoring");
    /** The page whose "Monitoring" section lists the metrics the services export. */
    static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    /** The name prefixes of the meters the services register themselves, which docs/operations.md lists. */
    static final List<String> OWN_PREFIXES = List.of("crawler_", "redis_monitor_", "kafka_monitor_", "rest_");
    /**
     * The labels Prometheus itself puts on every scraped sample, and the namespace a Kubernetes scrape adds, by which the
     * alerts tell clusters apart (docs/operations.md, "Dashboards and alerts").
     */
    static final Set<String> TARGET_LABELS = Set.of("job", "instance", "namespace");

    /** An expression and the labels it, its panel's legend or its alert's annotations name. */
    record Query(String expression, Set<String> labels) {

        Query(String expression, String template) {
            this(expression, labelNames(expression, template));
        }
    }

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right", "and",
            "or", "unless", "bool", "offset", "inf", "nan");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)");
    private static final Pattern TEMPLATE_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}|\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    private MonitoringQueries() {
    }

    /** Every query of the dashboard's panels (with its legend) and of the alert rules (with their annotations). */
    static List<Query> queries() throws IOException {
        List<Query> queries = new ArrayList<>();
        JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("grafana/dashboards/scrapy-cluster.json").toFile());
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                queries.add(new Query(target.get("expr").asText(), target.path("legendFormat").asText("")));
            }
        }
        for (Map<String, Object> rule : alertRules()) {
            queries.add(new Query(String.valueOf(rule.get("expr")), String.valueOf(rule.get("annotations"))));
        }
        return queries;
    }

    /** The expression of the alert rule called {@code alert}. */
    static String alertExpression(String alert) throws IOException {
        return alertRules().stream().filter(rule -> alert.equals(rule.get("alert"))).map(rule -> String.valueOf(rule.get("expr")))
                .findFirst().orElseThrow(() -> new AssertionError("no alert " + alert + " in alerts.yml"));
    }

    /** The rules of every group of {@code alerts.yml}, in their order. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> alertRules() throws IOException {
        try (InputStream in = Files.newInputStream(MONITORING.resolve("prometheus/alerts.yml"))) {
            Map<String, List<Map<String, Object>>> rules = new Yaml().load(in);
            return rules.get("groups").stream().flatMap(group -> ((List<Map<String, Object>>) group.get("rules")).stream()).toList();
        }
    }

    /** The metric names {@code expression} reads. */
    static Set<String> metricNames(String expression) {
        String bare = STRING.matcher(expression).replaceAll(" ");
        bare = MATCHERS.matcher(bare).replaceAll(" ");
        bare = RANGE.matcher(bare).replaceAll(" ");
        bare = LABEL_LIST.matcher(bare).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher matcher = IDENTIFIER.matcher(bare);
        while (matcher.find()) {
            boolean function = matcher.group(2) != null;
            String name = matcher.group(1);
            if (!function && !KEYWORDS.contains(name.toLowerCase())) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * The label names {@code expression} matches on or groups by, and those {@code template} (a legend, or an
     * alert's annotations) fills in, less the {@link #TARGET_LABELS}.
     */
    static Set<String> labelNames(String expression, String template) {
        String bare = STRING.matcher(expression).replaceAll(" ");
        Set<String> labels = new TreeSet<>();
        Matcher matchers = MATCHERS.matcher(bare);
        while (matchers.find()) {
            Matcher label = MATCHER_LABEL.matcher(matchers.group());
            while (label.find()) {
                labels.add(label.group(1));
            }
        }
        Matcher lists = LABEL_LIST.matcher(bare);
        while (lists.find()) {
            String list = lists.group();
            for (String label : list.substring(list.indexOf('(') + 1, list.length() - 1).split(",")) {
                if (!label.isBlank()) {
                    labels.add(label.strip());
                }
            }
        }
        Matcher filled = TEMPLATE_LABEL.matcher(template);
        while (filled.find()) {
            labels.add(filled.group(1) != null ? filled.group(1) : filled.group(2));
        }
        labels.removeAll(TARGET_LABELS);
        return labels;
    }

    /** The text of docs/operations.md from its "## Monitoring" heading to the next section of that level. */
    static String monitoringSection() throws IOException {
        String page = Files.readString(OPERATIONS);
        int start = page.indexOf("\n## Monitoring\n");
        if (start < 0) {
            throw new AssertionError("docs/operations.md has no Monitoring section");
        }
        int end = page.indexOf("\n## ", start + 1);
        return end < 0 ? page.substring(start) : page.substring(start, end);
    }

    /**
     * The sample names of the services' own meters ({@link #OWN_PREFIXES}) that no row of {@code section}'s tables names,
     * a histogram's or summary's samples by the meter's name ({@code _bucket}, {@code _count}, {@code _sum} and
     * {@code _max} cut off). A name a row writes with a {@code *} after a prefix ({@code rest_feed_*}) names every sample
     * of that prefix. Prose is not read: a sentence that speaks of {@code crawler_*} meters lists none of them.
     */
    static Set<String> undocumented(Set<String> sampleNames, String section) {
        Set<String> written = new TreeSet<>();
        Set<String> prefixes = new TreeSet<>();
        Pattern name = Pattern.compile("`([a-zA-Z_:][a-zA-Z0-9_:]*)(\\*)?");
        section.lines().filter(line -> line.startsWith("|")).forEach(row -> {
            Matcher code = name.matcher(row);
            while (code.find()) {
                (code.group(2) != null ? prefixes : written).add(code.group(1));
            }
        });
        Set<String> missing = new TreeSet<>();
        for (String sample : sampleNames) {
            if (OWN_PREFIXES.stream().noneMatch(sample::startsWith)) {
                continue;
            }
            String meter = sample.replaceFirst("_(bucket|count|sum|max)$", "");
            if (!written.contains(sample) && !written.contains(meter) && prefixes.stream().noneMatch(meter::startsWith)) {
                missing.add(meter);
            }
        }
        return missing;
    }

    /** The label names of each sample name of a Prometheus text exposition. */
    static Map<String, Set<String>> sampleLabels(String scrape) {
        Map<String, Set<String>> labels = new TreeMap<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            if (brace < 0 || (space >= 0 && space < brace)) {
                labels.computeIfAbsent(line.substring(0, space < 0 ? line.length() : space), n -> new TreeSet<>());
                continue;
            }
            Set<String> names = labels.computeIfAbsent(line.substring(0, brace), n -> new TreeSet<>());
            int at = brace + 1;
            while (at < line.length() && line.charAt(at) != '}') {
                int equals = line.indexOf('=', at);
                names.add(line.substring(at, equals).strip());
                at = equals + 2;
                while (line.charAt(at) != '"') {
                    at += line.charAt(at) == '\\' ? 2 : 1;
                }
                at++;
                if (line.charAt(at) == ',') {
                    at++;
                }
            }
        }
        return labels;
    }
}
