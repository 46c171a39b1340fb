package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The regexes of one crawl request together: their number, length and the size of their programs are read from their text
 * before any is compiled, so that a request of many regexes, each within the limits of one, cannot hold the
 * service compiling them.
 */
class RegexBudgetTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RequestValidator VALIDATOR = new RequestValidator(RequestSchema.scraper(CrawlLimits.ORIGINAL));
    /** Unbalanced: refused once compiled, which shows whether it was. */
    private static final String REFUSED_WHEN_COMPILED = "(unbalanced";

    @Test
    void moreRegexesThanARequestMayCarryAreRefusedBeforeAnyIsCompiled() {
        List<String> allow = new ArrayList<>();
        for (int i = 0; i < LinearRegex.MAX_PER_REQUEST; i++) {
            allow.add("page" + i);
        }

        List<Violation> violations = violations(allow, List.of(REFUSED_WHEN_COMPILED));

        assertEquals(List.of(new Violation("allow_regex", "a request may carry at most 1000 regular expressions in allow_regex and"
                + " deny_regex together, was 1001")), violations);
    }

    @Test
    void regexesWhoseProgramsTogetherExpandBeyondTheBudgetAreRefusedBeforeAnyIsCompiled() {
        // each within the limit of one (98,901 instructions), three of them beyond the budget of a request
        List<String> allow = List.of("(a{999}){99}1", "(a{999}){99}2", "(a{999}){99}3");

        List<Violation> violations = violations(allow, List.of(REFUSED_WHEN_COMPILED));

        assertEquals(List.of(new Violation("allow_regex", "the regular expressions of allow_regex and deny_regex expand to more than"
                + " 200000 instructions together, were 296716")), violations);
    }

    @Test
    void regexesLongerTogetherThanARequestMayCarryAreRefusedBeforeAnyIsCompiled() {
        // a program of one instruction each, but RE2/J's parser takes time with the square of a regex's length
        List<String> allow = List.of("[" + "[:".repeat(5_000) + "]", "[" + "[:".repeat(5_000) + "x]");

        List<Violation> violations = violations(allow, List.of(REFUSED_WHEN_COMPILED));

        assertEquals(List.of(new Violation("allow_regex", "the regular expressions of allow_regex and deny_regex may have at most"
                + " 20000 characters together, had 20016")), violations);
    }

    @Test
    void regexesWithinTheBudgetAreEachCompiledAndCheckedAsBefore() {
        List<Violation> violations = violations(List.of("(a{999}){99}1", "(a{999}){99}2"), List.of("\\.pdf$", REFUSED_WHEN_COMPILED));

        assertEquals(1, violations.size(), violations.toString());
        assertEquals("deny_regex[1]", violations.getFirst().path());
    }

    @Test
    void aRegexBeyondTheLimitOfOneIsStillNamedOnItsOwn() {
        List<Violation> violations = violations(List.of("((a{1000}){1000}){1000}"), List.of());

        assertEquals(1, violations.size(), violations.toString());
        assertEquals("allow_regex[0]", violations.getFirst().path());
    }

    private static List<Violation> violations(List<String> allow, List<String> deny) {
        ObjectNode request = JSON.createObjectNode().put("url", "http://example.com/").put("appid", "app1").put("crawlid", "c1");
        ArrayNode allowed = request.putArray("allow_regex");
        allow.forEach(allowed::add);
        ArrayNode denied = request.putArray("deny_regex");
        deny.forEach(denied::add);
        return assertInstanceOf(ValidationResult.Invalid.class, VALIDATOR.validate(request)).violations();
    }
}
