package org.scrapycluster.standalone.acceptance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates, without a Prometheus, an alert expression made of counter rates: {@code sum [by (labels)] (rate(name{matchers}[range])
 * or rate(...) ...)} terms, {@code + - * /}, parentheses and one comparison with a number at the end. Every rate is over the
 * same window, so each term is taken as the sum of the increases of the series its rates select, over the one cluster the
 * increases are of; as in Prometheus, a series of a rate after {@code or} whose labels a series before it has is left
 * out ({@code rate} drops the name); a sum over no series is 0 here. The comparison is left out: the value it compares is returned.
 * Anything else in the expression is refused, so that a rule this cannot read is not read wrong.
 */
final class CounterArithmetic {

    /** How much one series of a counter grew over the window. */
    record Increase(String name, Map<String, String> labels, double value) {

        static Increase of(String name, String label, String labelValue, double value) {
            return new Increase(name, Map.of(label, labelValue), value);
        }
    }

    private static final String RATE = "rate\\s*\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{[^}]*})?\\s*\\[[^]]+]\\s*\\)";
    private static final Pattern RATES = Pattern.compile(RATE);
    private static final Pattern SUM_OF_RATES = Pattern.compile(
            "sum\\s*(?:by\\s*\\([^)]*\\)\\s*)?\\(\\s*(" + RATE + "(?:\\s*or\\s*" + RATE + ")*)\\s*\\)");
    private static final Pattern COMPARISON = Pattern.compile("(>=|<=|==|!=|>|<)\\s*[0-9.]+\\s*$");
    private static final Pattern MATCHER = Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"\\\\]*)\"\\s*,?");
    private static final Pattern TOKEN = Pattern.compile("\\s*(#\\d+|[0-9.]+|[-+*/()])");

    private final List<Double> terms = new ArrayList<>();
    private final List<String> tokens = new ArrayList<>();
    private int at;

    private CounterArithmetic() {
    }

    /** The value {@code expression} compares, over counters that grew by {@code increases}. */
    static double value(String expression, List<Increase> increases) {
        return new CounterArithmetic().evaluate(expression, increases);
    }

    private double evaluate(String expression, List<Increase> increases) {
        Matcher sums = SUM_OF_RATES.matcher(expression);
        StringBuilder arithmetic = new StringBuilder();
        while (sums.find()) {
            double term = 0;
            Set<Map<String, String>> taken = new HashSet<>(); // rate() drops the name: or keeps the first of one label set
            Matcher rates = RATES.matcher(sums.group(1));
            while (rates.find()) {
                String name = rates.group(1);
                String matchers = rates.group(2) == null ? "" : rates.group(2).substring(1, rates.group(2).length() - 1);
                Predicate<Map<String, String>> selected = selector(matchers);
                List<Increase> series = increases.stream().filter(i -> i.name().equals(name) && selected.test(i.labels())
                        && !taken.contains(i.labels())).toList();
                series.forEach(i -> taken.add(i.labels()));
                term += series.stream().mapToDouble(Increase::value).sum();
            }
            terms.add(term);
            sums.appendReplacement(arithmetic, "#" + (terms.size() - 1));
        }
        sums.appendTail(arithmetic);
        String bare = COMPARISON.matcher(arithmetic).replaceFirst("");
        Matcher tokenizer = TOKEN.matcher(bare);
        while (tokenizer.lookingAt()) {
            tokens.add(tokenizer.group(1));
            tokenizer.region(tokenizer.end(), bare.length());
        }
        if (!bare.substring(tokenizer.regionStart()).isBlank()) {
            throw new IllegalArgumentException("not counter arithmetic: " + bare.substring(tokenizer.regionStart()));
        }
        double value = sum();
        if (at != tokens.size()) {
            throw new IllegalArgumentException("not counter arithmetic: " + bare);
        }
        return value;
    }

    /** The label sets that every matcher of {@code matchers} ({@code a="b", c=~"d|e"}) holds for; regexes match whole values. */
    private static Predicate<Map<String, String>> selector(String matchers) {
        Predicate<Map<String, String>> all = labels -> true;
        Matcher matcher = MATCHER.matcher(matchers);
        while (matcher.lookingAt()) {
            String label = matcher.group(1);
            String operand = matcher.group(3);
            Predicate<String> holds = switch (matcher.group(2)) {
                case "=" -> operand::equals;
                case "!=" -> value -> !value.equals(operand);
                case "=~" -> value -> value.matches(operand);
                default -> value -> !value.matches(operand);
            };
            all = all.and(labels -> holds.test(labels.getOrDefault(label, "")));
            matcher.region(matcher.end(), matchers.length());
        }
        if (!matchers.substring(matcher.regionStart()).isBlank()) {
            throw new IllegalArgumentException("not a label matcher: " + matchers.substring(matcher.regionStart()));
        }
        return all;
    }

    private double sum() {
        double value = product();
        while (next("+") || next("-")) {
            value = tokens.get(at - 1).equals("+") ? value + product() : value - product();
        }
        return value;
    }

    private double product() {
        double value = operand();
        while (next("*") || next("/")) {
            value = tokens.get(at - 1).equals("*") ? value * operand() : value / operand();
        }
        return value;
    }

    private double operand() {
        if (next("(")) {
            double value = sum();
            if (!next(")")) {
                throw new IllegalArgumentException("unbalanced parentheses");
            }
            return value;
        }
        if (at == tokens.size()) {
            throw new IllegalArgumentException("an operand is missing");
        }
        String token = tokens.get(at++);
        return token.startsWith("#") ? terms.get(Integer.parseInt(token.substring(1))) : Double.parseDouble(token);
    }

    private boolean next(String token) {
        if (at < tokens.size() && tokens.get(at).equals(token)) {
            at++;
            return true;
        }
        return false;
    }
}
