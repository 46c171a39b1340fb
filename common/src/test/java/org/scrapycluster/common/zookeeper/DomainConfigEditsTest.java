package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.scrapycluster.common.testing.ResourceFixtures;

/**
 * The four edits of the Redis monitor's zookeeper job, byte for byte against the original's output (docs/compatibility.md §3.9, §10): the
 * {@code *-keeps-every-other-value} cases hold what crawlers do not read, or read otherwise than we do (fractions, quoted
 * numbers, unknown keys, a number in the blacklist), which an edit writes back as it was.
 */
class DomainConfigEditsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> cases() {
        return ResourceFixtures.list("zookeeper/edits").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void editWritesTheOriginalsBytes(String name) throws Exception {
        String before = ResourceFixtures.text("zookeeper/edits/" + name + "/before.yml");
        JsonNode job = JSON.readTree(ResourceFixtures.text("zookeeper/edits/" + name + "/job.json"));
        String expected = ResourceFixtures.text("zookeeper/edits/" + name + "/after.yml");

        String written = apply(DomainConfigDocument.read(before), job).text();

        assertEquals(expected, written);
        assertEquals(expected, DomainConfigDocument.read(expected).text(), "what we write reads and writes back the same");
    }

    private static DomainConfigDocument apply(DomainConfigDocument document, JsonNode job) {
        String domain = job.get("domain").asText();
        return switch (job.get("action").asText()) {
            case "domain-update" -> document.domainUpdate(domain, job.get("window").numberValue(), job.get("hits").asLong(),
                    job.get("scale").numberValue());
            case "domain-remove" -> document.domainRemove(domain);
            case "blacklist-update" -> document.blacklistUpdate(domain);
            case "blacklist-remove" -> document.blacklistRemove(domain);
            default -> throw new IllegalArgumentException(job.toString());
        };
    }
}
