package org.scrapycluster.common.settings;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What the error of a setting name no layer may set here adds, for a name written as settings are (UPPER_SNAKE_CASE):
 * for a name that the crawler spells with {@code SC_} before it ({@code LOG_LEVEL} given to a crawler), that name; for a
 * setting of other services, which they are and the name scoped to one of them, which any service takes and only
 * that one applies ({@code standalone.STANDALONE_CRAWLERS}); else the declared name it most likely misspells, at most
 * {@value #MOST_EDITS} letters away; else where an extension's own settings come from (the environment only,
 * docs/extending.md).
 */
final class UnknownSettingHint {

    private static final int MOST_EDITS = 2;
    /** What the crawler's logging settings begin with, the others' without it ({@code SC_LOG_LEVEL}, {@code LOG_LEVEL}). */
    private static final String CRAWLER_PREFIX = "SC_";

    private UnknownSettingHint() {
    }

    /** The hint for {@code name}, given the names declared where it was refused; empty when there is none. */
    static String of(String name, Collection<String> declaredHere) {
        if (declaredHere.contains(CRAWLER_PREFIX + name)) {
            return "; did you mean " + CRAWLER_PREFIX + name + "? (the crawler's names for the other services' " + name
                    + ", as in the original)";
        }
        List<String> declaring = SettingsSchema.SERVICES.stream().filter(service -> SettingsSchema.load(service).find(name).isPresent())
                .toList();
        if (!declaring.isEmpty()) {
            return "; it is a setting of the " + String.join(" and ", declaring) + (declaring.size() == 1 ? " service" : " services")
                    + " (scoped to " + (declaring.size() == 1 ? "it" : "one") + ": " + declaring.getFirst() + "." + name + ")";
        }
        record Candidate(String name, int edits) {
        }
        Optional<Candidate> closest = declaredHere.stream().map(declared -> new Candidate(declared, edits(name, declared)))
                .filter(candidate -> candidate.edits() <= MOST_EDITS)
                .min(Comparator.comparingInt(Candidate::edits).thenComparing(Candidate::name));
        return closest.map(candidate -> "; did you mean " + candidate.name() + "?")
                .orElse("; an extension's own setting is read from the environment variable of that name only");
    }

    /** How many letters to insert, delete or replace to turn {@code a} into {@code b} (Levenshtein distance). */
    static int edits(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int replace = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
