package org.scrapycluster.rest.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.rest.http.Access;
import org.scrapycluster.rest.http.HttpCall;

/** Which bodies of {@code /feed} only ask (a read key will do) and which change something. */
class FeedAccessTest {

    private final FeedAccess rule = new FeedAccess(new Json(new JsonLimits(64, 1_000_000, 1_048_576)));

    @Test
    void infoAndStatsOnlyAsk() {
        assertEquals(Access.READ, needed("{\"action\": \"info\", \"appid\": \"app\", \"uuid\": \"u1\", \"spiderid\": \"link\", \"crawlid\": \"c\"}"));
        assertEquals(Access.READ, needed("{\"stats\": \"all\", \"appid\": \"app\", \"uuid\": \"u2\"}"));
        assertEquals(Access.READ, needed("{\"appid\": \"app\", \"uuid\": \"u3\"}"));
    }

    @Test
    void everythingElseChangesSomething() {
        assertEquals(Access.WRITE, needed("{\"url\": \"http://example.com/\", \"appid\": \"app\", \"crawlid\": \"c\"}"));
        assertEquals(Access.WRITE, needed("{\"action\": \"stop\", \"appid\": \"app\", \"uuid\": \"u\", \"spiderid\": \"link\"}"));
        assertEquals(Access.WRITE, needed("{\"action\": \"expire\", \"appid\": \"app\", \"uuid\": \"u\", \"spiderid\": \"link\", \"expire\": 1}"));
        assertEquals(Access.WRITE, needed("{\"action\": \"domain-update\", \"domain\": \"example.com\", \"hits\": 9, \"window\": 1,"
                + " \"scale\": 1, \"appid\": \"app\", \"uuid\": \"u\"}"));
        assertEquals(Access.WRITE, needed("{\"action\": \"info\", \"appid\": \"app\", \"uuid\": \"u\", \"spiderid\": \"link\","
                + " \"url\": \"http://example.com/\"}"), "an info with a crawl's field could be read as a crawl");
        assertEquals(Access.WRITE, needed("{\"action\": [\"info\"], \"appid\": \"app\", \"uuid\": \"u\", \"spiderid\": \"link\"}"));
        assertEquals(Access.WRITE, needed("[{\"stats\": \"all\"}]"));
    }

    @Test
    void aBodyThatIsNotJsonNeedsOnlyAReadKeyForTheFeedRefusesItWith400() {
        assertEquals(Access.READ, needed("not json"));
        assertEquals(Access.READ, needed("{\"action\": \"info\", \"appid\": \"app\", \"uuid\": \"u1\",}"));
        assertEquals(Access.READ, needed(""));
    }

    private Access needed(String body) {
        return rule.needed(new HttpCall(HttpMethod.POST, "/feed", "application/json", body.getBytes(StandardCharsets.UTF_8)));
    }
}
