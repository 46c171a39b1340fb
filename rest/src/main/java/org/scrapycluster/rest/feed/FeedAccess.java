package org.scrapycluster.rest.feed;

import java.util.Iterator;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.rest.http.Access;
import org.scrapycluster.rest.http.AccessRule;
import org.scrapycluster.rest.http.HttpCall;

/**
 * The access a {@code POST /feed} needs: a read key for an {@code info} action or a {@code stats}
 * request, which only ask; a write key for everything else (crawls, {@code stop}, {@code expire},
 * {@code zookeeper} updates, and any JSON that is not one of the two asking shapes). A body counts
 * as asking only when it has no field besides those of its schema, so that no plugin of the Kafka
 * monitor can read it as something else. A body that is not JSON needs only a read key: the feed reads
 * it with the same reader ({@link org.scrapycluster.rest.http.JsonBodies}) and refuses it with 400 before
 * anything is sent, which is the answer a caller with a read key and a typo needs, not 403.
 */
public final class FeedAccess implements AccessRule {

    private static final Set<String> INFO_FIELDS = Set.of("action", "appid", "uuid", "crawlid", "spiderid");
    private static final Set<String> STATS_FIELDS = Set.of("stats", "appid", "uuid");

    private final Json json;

    public FeedAccess(Json json) {
        this.json = json;
    }

    @Override
    public Access needed(HttpCall call) {
        JsonNode body;
        try {
            body = json.readTree(call.body());
        } catch (JsonInputException e) {
            return Access.READ;
        }
        return asks(body) ? Access.READ : Access.WRITE;
    }

    private static boolean asks(JsonNode body) {
        if (!body.isObject()) {
            return false;
        }
        if (body.has("action")) {
            return "info".equals(body.get("action").textValue()) && onlyFields(body, INFO_FIELDS);
        }
        return onlyFields(body, STATS_FIELDS);
    }

    private static boolean onlyFields(JsonNode body, Set<String> allowed) {
        for (Iterator<String> names = body.fieldNames(); names.hasNext();) {
            if (!allowed.contains(names.next())) {
                return false;
            }
        }
        return true;
    }
}
