package org.scrapycluster.kafkamonitor.plugin;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlFields;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.request.CrawlLimits;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.url.RequestFingerprint;

/**
 * Crawl requests (docs/compatibility.md §2.4.1, §2.5): files the request, as validated (defaults and
 * {@code ts} included, the {@code url} as the sender wrote it), into
 * {@code <spiderid>:<registered domain of url>:queue} with score −priority, registers the seed's
 * fingerprint in the crawl's dupefilter {@code <spiderid>:dupefilter:<crawlid>} for
 * {@code DUPEFILTER_TIMEOUT} seconds (so that a page linking back to the seed does not fetch it
 * again, and a redelivered request is not queued twice), and writes
 * {@code timeout:<spiderid>:<appid>:<crawlid>} when {@code expires} is not 0. The crawl schema's
 * {@code maxdepth} and {@code domain_max_pages} caps come from {@code CRAWL_MAXDEPTH_LIMIT} and
 * {@code CRAWL_DOMAIN_MAX_PAGES_LIMIT}.
 */
public final class ScraperHandler implements KafkaMonitorPlugin {

    private static final Pattern HAS_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://");

    private Json json;
    private Duration dupefilterTimeout;

    @Override
    public RequestSchema setup(Settings settings) {
        json = new Json(JsonLimits.from(settings));
        dupefilterTimeout = settings.getSeconds("DUPEFILTER_TIMEOUT");
        if (dupefilterTimeout.getSeconds() < 1) {
            throw settings.invalid("DUPEFILTER_TIMEOUT", "must be at least 1");
        }
        return RequestSchema.scraper(CrawlLimits.from(settings));
    }

    @Override
    public Handling handle(ObjectNode request) {
        String url = request.get("url").asText();
        CrawlRef crawl = new CrawlRef(request.get("spiderid").asText(), request.get("appid").asText(), request.get("crawlid").asText());
        QueueKey queue;
        String fingerprint;
        try {
            queue = new QueueKey(crawl.spiderId(), RegisteredDomain.of(url));
            fingerprint = RequestFingerprint.of(fetchedUrl(url));
        } catch (IllegalArgumentException e) {
            return refuse("url: " + e.getMessage());
        }
        Optional<CrawlFields> fields = CrawlFields.of(request);
        if (fields.isEmpty()) {
            return refuse("priority: must be a number");
        }
        EnqueueRequest seed = EnqueueRequest.of(queue, json.writeString(request), fields.get())
                .withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(crawl.spiderId(), crawl.crawlid()),
                        fingerprint, dupefilterTimeout))
                .withTimeoutKey();
        Optional<String> timeoutKey = request.get("expires").bigIntegerValue().signum() != 0 ? Optional.of(crawl.timeoutKey()) : Optional.empty();
        return Handling.accept("Added crawl to Redis", new RedisEffect.Enqueue(seed, timeoutKey));
    }

    private static Handling refuse(String detail) {
        return Handling.refuse("The crawl request cannot be queued", List.of(detail));
    }

    /** The URL the crawler fetches for a seed: as given, with {@code http://} in front when it has no scheme. */
    static String fetchedUrl(String url) {
        String trimmed = url.strip();
        return HAS_SCHEME.matcher(trimmed).find() ? trimmed : "http://" + trimmed;
    }
}
