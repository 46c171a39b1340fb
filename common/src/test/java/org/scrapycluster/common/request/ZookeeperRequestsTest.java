package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** What a zookeeper request valid against its schema is refused for, with its defaults filled in as the schema gives them. */
class ZookeeperRequestsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aDomainUpdateNeedsHitsAndAWindowCrawlersKeep() throws Exception {
        assertEquals(Optional.of(new ZookeeperRequests.Refused("'hits' and 'window' not set for domain update", List.of(
                "hits: must be set, and not 0, for a domain-update (0 is also what it is when left out)",
                "window: must be set, and not 0, for a domain-update (0 is also what it is when left out)"))),
                ZookeeperRequests.refusal(request("domain-update", "example.com", 0, 0)));
        assertEquals("'window' out of range for domain update",
                ZookeeperRequests.refusal(request("domain-update", "example.com", 10, 40_000_000)).orElseThrow().reason());
        assertEquals(Optional.empty(), ZookeeperRequests.refusal(request("domain-update", "example.com", 10, 60)));
    }

    @Test
    void anyActionNeedsADomainWithAnAsciiForm() throws Exception {
        String tooLong = "b\u00fccher" + "x".repeat(70) + ".de";
        assertEquals("'domain' has no ASCII form (IDNA)", ZookeeperRequests.refusal(request("blacklist-update", tooLong, 0, 0))
                .orElseThrow().reason());
        assertEquals(Optional.empty(), ZookeeperRequests.refusal(request("blacklist-update", "b\u00fccher.de", 0, 0)));
    }

    private static JsonNode request(String action, String domain, long hits, long window) throws Exception {
        return JSON.createObjectNode().put("action", action).put("domain", domain).put("uuid", "z").put("appid", "app")
                .put("hits", hits).put("window", window).put("scale", 1.0);
    }
}
