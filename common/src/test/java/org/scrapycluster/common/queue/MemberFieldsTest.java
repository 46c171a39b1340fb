package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/**
 * The hand-out reads the crawl fields of a member our crawlers wrote from its start, without decoding it, and those of
 * any other member by decoding it (lua/lib/member.lua); either way they are the fields Java reads
 * ({@link CrawlFields#ofMember}).
 */
@ExtendWith(TestRedis.class)
class MemberFieldsTest {

    private static final LuaScript MEMBER_FIELDS = LuaScript.load("member_fields", LuaScript.KEYSPACE, "member");
    private static final String OURS = "{\"url\":\"http://a.com/p?q=1\",\"meta\":{\"appid\":\"app\",\"crawlid\":\"c1\","
            + "\"priority\":-7,\"expires\":1900000000,\"curdepth\":1,\"attrs\":{\"appid\":\"other\"}},\"callback\":\"parse\"}";

    private final RedisConnection redis;

    MemberFieldsTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void aMemberOurCrawlersWriteIsReadFromItsStart() {
        assertRead("leading", OURS);
        assertRead("leading", "{\"url\":\"http://a.com/\",\"meta\":{\"appid\":\"app\",\"crawlid\":\"c1\",\"priority\":0,\"expires\":0}}");
    }

    @Test
    void anyOtherMemberIsDecodedToTheSameFields() {
        assertRead("decoded", OURS.replace("p?q=1", "p?q=\\\"1\\\""), "an escape in the URL");
        assertRead("decoded", OURS.replace("\"app\"", "\"a\\u0070p\""), "an escape in the appid");
        assertRead("decoded", OURS.replace("-7", "-7.9"), "a fractional priority");
        assertRead("decoded", OURS.replace("1900000000", "1900000000.0"), "a fractional expiry");
        assertRead("decoded", OURS.replace("\"priority\":-7,\"expires\":1900000000,", "\"priority\":-7,"), "no expiry");
        assertRead("decoded", OURS.replace("\",\"meta\":{", "\",\"method\":\"GET\",\"meta\":{"), "meta not second");
        assertRead("decoded", OURS.replace("\":", "\": ").replace(",\"", ", \""), "a Python crawler's spacing");
        assertRead("decoded", Members.serializedRequest("http://a.com/", "app", "c1", 7, 0), "the original's key order");
        assertRead("decoded", Members.feedItem("http://a.com/", "app", "c1", 7, 0), "a feed item");
    }

    private void assertRead(String how, String member) {
        assertRead(how, member, member);
    }

    private void assertRead(String how, String member, String what) {
        CrawlFields java = CrawlFields.ofMember(member).orElseThrow();
        List<String> expected = new ArrayList<>(List.of(java.appid(), java.crawlid(), Long.toString(java.priority()),
                java.expires().replaceFirst("\\.0$", ""), how));
        List<String> lua = MEMBER_FIELDS.call(redis, ScriptOutputType.MULTI, new String[0], member);
        assertEquals(expected, lua, what);
    }
}
