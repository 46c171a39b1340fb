package org.scrapycluster.bench.outside;

import java.util.ArrayList;
import java.util.List;

import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;

/**
 * The requests of one crawl from outside, as a client application puts them on the incoming topic (docs/api.md, "Crawl
 * request"): every seed under every crawl id, appid {@value #APPID}, the {@value #SPIDER} spider, and {@code maxdepth}
 * {@value #MAX_DEPTH}, the most the request schema allows.
 */
final class CrawlRequests {

    static final String APPID = "bench";
    static final String SPIDER = "link";
    static final int MAX_DEPTH = 3;

    /** With the Kafka monitor's limits, the reader of these requests. */
    private static final Json JSON = new Json(JsonLimits.from(Settings.defaults("kafka-monitor")));

    private CrawlRequests() {
    }

    /** The requests as JSON, seed by seed, each under every crawl id. */
    static List<String> of(List<String> seeds, List<String> crawlids) {
        List<String> requests = new ArrayList<>(seeds.size() * crawlids.size());
        for (String url : seeds) {
            for (String crawlid : crawlids) {
                requests.add(JSON.writeString(new CrawlRequest(url, APPID, crawlid, SPIDER, MAX_DEPTH)));
            }
        }
        return requests;
    }

    /** One request's fields, written in this order. */
    private record CrawlRequest(String url, String appid, String crawlid, String spiderid, int maxdepth) {
    }
}
