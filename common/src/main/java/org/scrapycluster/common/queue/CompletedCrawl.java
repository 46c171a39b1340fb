package org.scrapycluster.common.queue;

import java.util.OptionalLong;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A retired crawl whose completion no Kafka has taken yet: a member of {@code crawls:completed},
 * {@code ["<spiderid>","<appid>","<crawlid>",<pages>,<started>]}, as the retire script files it; {@code <started>} is
 * left out when the crawl's accounting recorded no start (it was counted by a build that did not record one).
 *
 * @param crawl   the crawl
 * @param pages   the results its crawlers published
 * @param started when its first request was counted, in epoch seconds on the Redis server's clock, if known
 * @param entry   the member as it is stored, to put it back unchanged
 */
public record CompletedCrawl(CrawlRef crawl, long pages, OptionalLong started, String entry) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads a member of {@code crawls:completed}.
     *
     * @throws IllegalArgumentException when it is not three strings and one or two whole numbers
     */
    public static CompletedCrawl parse(String entry) {
        JsonNode parts;
        try {
            parts = JSON.readTree(entry);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + entry, e);
        }
        if (parts == null || !parts.isArray() || parts.size() < 4 || parts.size() > 5 || !parts.get(0).isTextual()
                || !parts.get(1).isTextual() || !parts.get(2).isTextual() || !wholeNumber(parts.get(3))
                || parts.size() == 5 && !wholeNumber(parts.get(4))) {
            throw new IllegalArgumentException("not [spiderid, appid, crawlid, pages] or [..., started]: " + entry);
        }
        return new CompletedCrawl(new CrawlRef(parts.get(0).asText(), parts.get(1).asText(), parts.get(2).asText()),
                parts.get(3).asLong(), parts.size() == 5 ? OptionalLong.of(parts.get(4).asLong()) : OptionalLong.empty(), entry);
    }

    private static boolean wholeNumber(JsonNode part) {
        return part.isIntegralNumber() && part.canConvertToLong();
    }
}
