package org.scrapycluster.common.request;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A named JSON schema (Draft 4) that requests of one kind must match. The four built-in ones —
 * {@value #SCRAPER}, {@value #ACTION}, {@value #STATS}, {@value #ZOOKEEPER} — are the original's
 * {@code <name>_schema.json}, kept as resources under {@code schemas/}; a plugin brings its own.
 *
 * @param name what requests of this kind are called, e.g. {@code scraper}
 * @param document the schema; a copy is kept and handed out
 */
public record RequestSchema(String name, JsonNode document) {

    public static final String SCRAPER = "scraper";
    public static final String ACTION = "action";
    public static final String STATS = "stats";
    public static final String ZOOKEEPER = "zookeeper";

    private static final ObjectMapper JSON = new ObjectMapper();

    public RequestSchema {
        Objects.requireNonNull(name, "name");
        if (!Objects.requireNonNull(document, "document").isObject()) {
            throw new IllegalArgumentException("the schema " + name + " is not a JSON object");
        }
        document = document.deepCopy();
    }

    @Override
    public JsonNode document() {
        return document.deepCopy();
    }

    /** The built-in schema {@code name} ({@code scraper}, {@code action}, {@code stats} or {@code zookeeper}). */
    public static RequestSchema builtIn(String name) {
        String resource = "schemas/" + name + "_schema.json";
        try (InputStream in = RequestSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no built-in request schema named '" + name + "'");
            }
            return read(name, in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The crawl request schema with {@code limits} in place of the original's maxdepth and domain_max_pages caps. */
    public static RequestSchema scraper(CrawlLimits limits) {
        return builtIn(SCRAPER)
                .withMaximum("maxdepth", limits.maxDepth())
                .withMaximum("domain_max_pages", limits.maxDomainPages());
    }

    /** Reads a schema from JSON text, e.g. a plugin's schema file. */
    public static RequestSchema read(String name, InputStream json) throws IOException {
        return new RequestSchema(name, JSON.readTree(json));
    }

    /** This schema with the top-level property {@code property} capped at {@code maximum}. */
    public RequestSchema withMaximum(String property, long maximum) {
        JsonNode schema = document.path("properties").path(property);
        if (!schema.isObject()) {
            throw new IllegalArgumentException("the schema " + name + " has no property " + property);
        }
        ObjectNode edited = document.deepCopy();
        ObjectNode bounded = (ObjectNode) edited.get("properties").get(property);
        // An int node where the value fits, as parsing gives, so that an unchanged limit leaves an equal schema.
        if (maximum == (int) maximum) {
            bounded.put("maximum", (int) maximum);
        } else {
            bounded.put("maximum", maximum);
        }
        return new RequestSchema(name, edited);
    }
}
