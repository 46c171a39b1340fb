package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.re2j.PatternSyntaxException;

class LinearRegexTest {

    @Test
    void patternsOfRealCrawlsCompile() {
        for (String regex : List.of("^https://www\\.example\\.com/products", "[a-z]{1,1000}", "(\\d{3}-){100}", "a{2,}?b",
                "\\p{Greek}+", "\\x{263a}{500}", "[(]{1000}", "\\Q((((\\E", "x{,5}", "(?i)/(news|blog)/\\d{4}/",
                "(".repeat(LinearRegex.MAX_NESTING) + "a" + ")".repeat(LinearRegex.MAX_NESTING))) {
            assertDoesNotThrow(() -> LinearRegex.compile(regex), regex);
        }
    }

    @Test
    void repetitionsThatExpandBeyondTheLimitAreRefusedBeforeCompiling() {
        for (String regex : List.of("((a{1000}){1000}){1000}", "(a{1000}){101}", "((x{500}|y){20}z?){20}",
                "([a-z]{1000}+){200}")) {
            PatternSyntaxException refused = assertThrows(PatternSyntaxException.class, () -> LinearRegex.compile(regex), regex);
            assertTrue(refused.getDescription().contains("expand to more than"), refused.getDescription());
        }
    }

    @Test
    void groupsNestedBeyondTheLimitAreRefusedWithoutOverflowingTheStack() {
        for (int depth : List.of(LinearRegex.MAX_NESTING + 1, 50_000)) {
            String regex = "(".repeat(depth) + "a" + ")".repeat(depth);
            PatternSyntaxException refused = assertThrows(PatternSyntaxException.class, () -> LinearRegex.compile(regex));
            assertTrue(refused.getDescription().contains("nested more than"), refused.getDescription());
        }
    }

    @Test
    void posixClassOpeningsWithoutAnEndAreReadAsOneClassToTheEndOfTheText() {
        for (int pairs : List.of(100_000, 500_000)) { // 200,000 characters, and the 1 MiB of a request's largest
            assertEquals(1, LinearRegex.programSize("[:".repeat(pairs)), pairs + " pairs");
        }
        PatternSyntaxException refused = assertThrows(PatternSyntaxException.class, () -> LinearRegex.compile("[:".repeat(1_000)));
        assertTrue(refused.getDescription().contains("missing closing ]"), refused.getDescription());
    }

    @Test
    void eachPosixClassEndsAtItsOwnColonBracketAndTheClassAtItsBracket() {
        assertEquals(3, LinearRegex.programSize("[[:alpha:][:digit:]]{3}"));
        assertEquals(2, LinearRegex.programSize("[[:alpha:]]x"));
        // the one :] is far after the openings, past none of them: the class ends at the ] after it
        assertEquals(6, LinearRegex.programSize("[" + "[:".repeat(100_000) + ":]]a{5}"));
        assertDoesNotThrow(() -> LinearRegex.compile("[[:alpha:][:digit:]_-]+"));
    }

    @Test
    void bracesWithoutACountAreLiteralsOfOneInstructionEach() {
        assertEquals(LinearRegex.MAX_PROGRAM_SIZE, LinearRegex.programSize("{".repeat(LinearRegex.MAX_PROGRAM_SIZE)));
        assertEquals(LinearRegex.MAX_PROGRAM_SIZE, LinearRegex.programSize("{".repeat(LinearRegex.MAX_PROGRAM_SIZE - 1) + "}"));
        for (int braces : List.of(200_000, 1_000_000)) {
            PatternSyntaxException refused = assertThrows(PatternSyntaxException.class, () -> LinearRegex.programSize("{".repeat(braces)));
            assertTrue(refused.getDescription().contains("expand to more than 100000"), refused.getDescription());
        }
        assertThrows(PatternSyntaxException.class, () -> LinearRegex.programSize("{".repeat(1_000_000) + "}"));
    }

    @Test
    void countedRepetitionsAreReadAsBefore() {
        assertEquals(3, LinearRegex.programSize("a{3}"));
        assertEquals(5, LinearRegex.programSize("a{2,5}"));
        assertEquals(3, LinearRegex.programSize("a{2,}")); // one copy more than the least
        assertEquals(3, LinearRegex.programSize("a{2,}?"));
        assertEquals(5, LinearRegex.programSize("a{,5}")); // no least: five literals
        assertEquals(8, LinearRegex.programSize("a{12345}")); // a count of five digits: literals
        assertEquals(8, LinearRegex.programSize("a{1,2,3}"));
        assertEquals(7, LinearRegex.programSize("a{1 ,2}"));
        assertEquals(2, LinearRegex.programSize("a{"));
        assertEquals(50_001, LinearRegex.programSize("{".repeat(50_000) + "3}")); // the last brace taken 3 times
        // any Unicode digit counts, as it always did here (an upper bound: RE2/J reads the Arabic-Indic three as a literal)
        assertEquals(3, LinearRegex.programSize("a{\u0663}"));
    }

    @Test
    void whatRe2RefusesIsStillRefused() {
        assertThrows(PatternSyntaxException.class, () -> LinearRegex.compile("(a)\\1"));
        assertThrows(PatternSyntaxException.class, () -> LinearRegex.compile("a{1001}"));
        assertThrows(PatternSyntaxException.class, () -> LinearRegex.compile("(a"));
    }
}
