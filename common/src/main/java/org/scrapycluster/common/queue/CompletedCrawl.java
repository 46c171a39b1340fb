package org.scrapycluster.common.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A retired crawl whose completion no Kafka has taken yet: a member of {@code crawls:completed},
 * {@code ["<spiderid>","<appid>","<crawlid>",<pages>]}, as the retire script files it.
 *
 * @param crawl the crawl
 * @param pages the results its crawlers published
 * @param entry the member as it is stored, to put it back unchanged
 */
public record CompletedCrawl(CrawlRef crawl, long pages, String entry) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads a member of {@code crawls:completed}.
     *
     * @throws IllegalArgumentException when it is not three strings and a whole number
     */
    public static CompletedCrawl parse(String entry) {
        JsonNode parts;
        try {
            parts = JSON.readTree(entry);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + entry, e);
        }
        if (parts == null || !parts.isArray() || parts.size() != 4 || !parts.get(0).isTextual() || !parts.get(1).isTextual()
                || !parts.get(2).isTextual() || !parts.get(3).isIntegralNumber() || !parts.get(3).canConvertToLong()) {
            throw new IllegalArgumentException("not [spiderid, appid, crawlid, pages]: " + entry);
        }
        return new CompletedCrawl(new CrawlRef(parts.get(0).asText(), parts.get(1).asText(), parts.get(2).asText()),
                parts.get(3).asLong(), entry);
    }
}
