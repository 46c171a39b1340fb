package org.scrapycluster.standalone.acceptance;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.Yaml;

/**
 * The PromQL expressions of {@code deploy/monitoring/} (the Grafana dashboard's targets and the
 * Prometheus alert rules) and the metric names they read: every identifier that is not a
 * function, keyword, label name, label value, range or number.
 */
final class MonitoringQueries {

    static final Path MONITORING = Path.of("..", "deploy", "monitoring");

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right", "and",
            "or", "unless", "bool", "offset", "inf", "nan");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    private MonitoringQueries() {
    }

    /** Every expression of the dashboard's panels and of the alert rules. */
    static List<String> expressions() throws IOException {
        List<String> expressions = new ArrayList<>();
        JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("grafana/dashboards/scrapy-cluster.json").toFile());
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asText());
            }
        }
        try (InputStream in = Files.newInputStream(MONITORING.resolve("prometheus/alerts.yml"))) {
            Map<String, List<Map<String, Object>>> rules = new Yaml().load(in);
            for (Map<String, Object> group : rules.get("groups")) {
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> groupRules = (List<Map<String, Object>>) group.get("rules");
                for (Map<String, Object> rule : groupRules) {
                    expressions.add(String.valueOf(rule.get("expr")));
                }
            }
        }
        return expressions;
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

    /** The sample names of a Prometheus text exposition ({@code name{labels} value} lines). */
    static Set<String> sampleNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }
}
