package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.type.TypeReference;
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

    /** A random document as PyYAML 3.12 dumped it, and as the original writes it back after an edit ({@code zookeeper/written-sampled.json}). */
    record SampledDocument(String text, String written) {
        @Override
        public String toString() {
            return text.length() > 60 ? text.substring(0, 60) + "…" : text;
        }
    }

    static List<SampledDocument> sampledDocuments() throws Exception {
        return JSON.readValue(ResourceFixtures.text("zookeeper/written-sampled.json"), new TypeReference<>() { });
    }

    /**
     * Random documents, in block, flow and mixed style, of text PyYAML reads as numbers or not, multi-line, long,
     * non-ASCII and non-printable text, floats at the limits, dates, binary, keys that are no text
     * ({@code sample_documents.py} writes them): an edit that changes nothing writes each back as the original does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("sampledDocuments")
    void aSampledDocumentIsWrittenBackAsTheOriginalWritesIt(SampledDocument sample) {
        assertEquals(sample.written(), DomainConfigDocument.read(sample.text()).domainRemove("absent.example").text());
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
