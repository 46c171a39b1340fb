package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.scrapycluster.common.testing.ResourceFixtures;

/** The four edits of the Redis monitor's zookeeper job, byte for byte against the original's output (§3.9, §10.2). */
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

        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient(before);
        assertTrue(parsed.isUsable(), parsed.problems().toString());
        DomainConfig edited = apply(parsed.config().orElseThrow(), job);

        assertEquals(expected, DomainConfigYaml.write(edited));
        assertEquals(expected, DomainConfigYaml.write(DomainConfigYaml.parseLenient(expected).config().orElseThrow()),
                "what we write reads back to the same config");
    }

    private static DomainConfig apply(DomainConfig config, JsonNode job) {
        String domain = job.get("domain").asText();
        return switch (job.get("action").asText()) {
            case "domain-update" -> config.domainUpdate(domain, job.get("window").asLong(), job.get("hits").asLong(),
                    job.get("scale").asDouble());
            case "domain-remove" -> config.domainRemove(domain);
            case "blacklist-update" -> config.blacklistUpdate(domain);
            case "blacklist-remove" -> config.blacklistRemove(domain);
            default -> throw new IllegalArgumentException(job.toString());
        };
    }
}
