package org.scrapycluster.common.json;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonToken;

/**
 * What was wrong with input that is not acceptable JSON, in words for whoever sent it (the cause of a
 * REST gateway's 400, docs/rest.md; the violation of a record on the rejected topic, docs/api.md; the
 * error of the {@code feed} tool): the reader's message, with what was wrong and where, without what
 * the parser library adds for programmers — the features that would make it accept the input
 * ({@code enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow}), the Java types and token
 * names it was reading ({@code (of type START_OBJECT)}, {@code (bound as `...`)}), the methods a limit
 * comes from. Text the sender wrote is quoted ({@code 'NaN'}) and always kept.
 */
final class JsonProblem {

    /** Where the reader says the problem is, at the end of its message. */
    private static final Pattern LOCATION = Pattern.compile(", at line \\d+, column \\d+$");
    /** The method a limit of the parser comes from, where no setting names the limit: {@code , from `...`}. */
    private static final Pattern LIMIT_SOURCE = Pattern.compile(", from `[^`]*`");
    /** An aside in parentheses, without parentheses inside. */
    private static final Pattern ASIDE = Pattern.compile(" ?\\([^()]*\\)");
    /** Where one clause or sentence of the message ends and the next begins. */
    private static final Pattern CLAUSE_END = Pattern.compile(": |\\. ");
    /** The sender's own text as the parser quotes it. */
    private static final Pattern QUOTED = Pattern.compile("'[^']*'");
    /** A Java name in backquotes, or a parser feature. */
    private static final Pattern LIBRARY_ADVICE = Pattern.compile("`|\\bFeature\\b");
    /** The parser's names for the kinds of token it reads. */
    private static final Pattern TOKEN_TYPE = Pattern.compile(Arrays.stream(JsonToken.values()).map(JsonToken::name)
            .collect(Collectors.joining("|", "\\b(?:", ")\\b")));

    private JsonProblem() {
    }

    /** {@code message} of the JSON reader, told to the sender. */
    static String describe(String message) {
        Matcher location = LOCATION.matcher(message);
        String where = location.find() ? location.group() : "";
        String text = LIMIT_SOURCE.matcher(message.substring(0, message.length() - where.length())).replaceAll("");
        text = ASIDE.matcher(text).replaceAll(aside -> aboutTheLibrary(aside.group(), true) ? "" : Matcher.quoteReplacement(aside.group()));
        return withoutAdvice(text) + where;
    }

    /** {@code text} without its clauses after the first that give the library's advice. */
    private static String withoutAdvice(String text) {
        StringBuilder kept = new StringBuilder();
        Matcher end = CLAUSE_END.matcher(text);
        int start = 0;
        String separator = "";
        while (start <= text.length()) {
            boolean more = end.find();
            String clause = text.substring(start, more ? end.start() : text.length());
            if (kept.isEmpty() || !aboutTheLibrary(clause, false)) {
                kept.append(kept.isEmpty() ? "" : separator).append(clause);
            }
            if (!more) {
                break;
            }
            separator = end.group();
            start = end.end();
        }
        return kept.toString();
    }

    /** Whether {@code text}, the sender's quoted text aside, speaks of the library (and, in an aside, of its token types). */
    private static boolean aboutTheLibrary(String text, boolean aside) {
        String unquoted = QUOTED.matcher(text).replaceAll("");
        return LIBRARY_ADVICE.matcher(unquoted).find() || aside && TOKEN_TYPE.matcher(unquoted).find();
    }
}
