package org.scrapycluster.common.queue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Queue members of both shapes, made from the fixture files with the crawl fields a test needs. */
final class Members {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Members() {
    }

    /** A Kafka monitor feed item (crawl fields at the top level). */
    static String feedItem(String url, String appid, String crawlid, int priority, long expires) {
        ObjectNode item = fixture("feed-item.json");
        item.put("url", url).put("appid", appid).put("crawlid", crawlid).put("priority", priority).put("expires", expires);
        return item.toString();
    }

    /** A crawler's serialized request (crawl fields inside meta). */
    static String serializedRequest(String url, String appid, String crawlid, int priority, long expires) {
        ObjectNode request = fixture("serialized-request.json");
        request.put("url", url);
        ((ObjectNode) request.get("meta")).put("appid", appid).put("crawlid", crawlid).put("priority", priority)
                .put("expires", expires);
        return request.toString();
    }

    static String resource(String name) {
        try (InputStream in = Members.class.getResourceAsStream("/queue-members/" + name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode fixture(String name) {
        try {
            return (ObjectNode) MAPPER.readTree(resource(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
