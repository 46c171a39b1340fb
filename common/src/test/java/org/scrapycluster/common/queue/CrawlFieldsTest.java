package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class CrawlFieldsTest {

    @Test
    void readsBothMemberShapesAsTheScriptsDid() {
        CrawlFields expected = new CrawlFields("app", "c1", 7, "1900000000");
        assertEquals(Optional.of(expected), CrawlFields.ofMember(Members.feedItem("https://a.com/", "app", "c1", 7, 1_900_000_000L)));
        assertEquals(Optional.of(expected),
                CrawlFields.ofMember(Members.serializedRequest("https://a.com/", "app", "c1", 7, 1_900_000_000L)));
        assertEquals(Optional.of(new CrawlFields("app", "c1", 7, "0")),
                CrawlFields.ofMember(Members.feedItem("https://a.com/", "app", "c1", 7, 0)));
    }

    @Test
    void aMemberWithoutStringIdsOrNumericPriorityHasNone() {
        assertEquals(Optional.empty(), CrawlFields.ofMember("not json"));
        assertEquals(Optional.empty(), CrawlFields.ofMember("[1, 2]"));
        assertEquals(Optional.empty(), CrawlFields.ofMember("{\"appid\":\"a\",\"crawlid\":7,\"priority\":1}"));
        assertEquals(Optional.empty(), CrawlFields.ofMember("{\"appid\":\"a\",\"crawlid\":\"c\",\"priority\":\"high\"}"));
        assertEquals(Optional.empty(), CrawlFields.ofMember("{\"meta\":{\"appid\":\"a\"},\"crawlid\":\"c\",\"priority\":1}"),
                "a member with meta keeps its crawl fields there");
    }

    @Test
    void priorityIsTruncatedTowardZeroAndExpiresKeptAsWritten() {
        assertEquals(Optional.of(new CrawlFields("a", "c", -2, "1900000000.5")),
                CrawlFields.ofMember("{\"appid\":\"a\",\"crawlid\":\"c\",\"priority\":-2.7,\"expires\":1900000000.5}"));
        assertEquals(Optional.of(new CrawlFields("a", "c", 3, "0")), CrawlFields.of("a", "c", new BigDecimal("3.9"), "soon"));
        assertEquals(Optional.of(new CrawlFields("a", "c", 3, "0")), CrawlFields.of("a", "c", 3, 0.0));
        assertEquals(Optional.of(new CrawlFields("a", "c", 3, "1E+999999999")),
                CrawlFields.ofMember("{\"appid\":\"a\",\"crawlid\":\"c\",\"priority\":3,\"expires\":1e999999999}"),
                "not a billion digits written out");
        assertEquals(Optional.of(new CrawlFields("a", "c", Long.MAX_VALUE, "0")),
                CrawlFields.ofMember("{\"appid\":\"a\",\"crawlid\":\"c\",\"priority\":1e20}"), "not wrapped");
    }

    @Test
    void aWholeNumberNearALongsEdgeIsExactBeyondItTheFarthestThatWay() {
        assertEquals(Long.MAX_VALUE - 100, CrawlFields.whole(BigInteger.valueOf(Long.MAX_VALUE - 100)), "no double's rounding");
        assertEquals(Long.MIN_VALUE, CrawlFields.whole(BigInteger.valueOf(Long.MIN_VALUE)));
        assertEquals(Long.MAX_VALUE, CrawlFields.whole(BigInteger.ONE.shiftLeft(63)));
        assertEquals(Long.MIN_VALUE, CrawlFields.whole(BigInteger.ONE.shiftLeft(63).negate().subtract(BigInteger.ONE)));
        assertEquals(Long.MAX_VALUE - 100, CrawlFields.whole(new BigDecimal("9223372036854775707.9")), "truncated");
        assertEquals(-2, CrawlFields.whole(-2.7));
        assertEquals(Long.MAX_VALUE, CrawlFields.whole(1e300));
    }

    @Test
    void aHandedOutRequestWithoutPriorityIsCountedUnderItsScore() {
        Map<String, Object> meta = new HashMap<>(Map.of("appid", "a", "crawlid", "c"));
        assertEquals(Optional.empty(), CrawlFields.of(meta));
        assertEquals(Optional.of(new CrawlFields("a", "c", 5, "0")), CrawlFields.ofHandedOut(meta, -5.0));
        assertEquals(Optional.of(new CrawlFields("a", "c", 5, "0")), CrawlFields.ofMember("{\"meta\":{\"appid\":\"a\",\"crawlid\":\"c\"}}", -5.0),
                "a member the crawler could not read as a request is counted the same way");
        meta.put("priority", 9);
        assertEquals(Optional.of(new CrawlFields("a", "c", 9, "0")), CrawlFields.ofHandedOut(meta, -5.0));
    }

    @Test
    void travelsAsFourArguments() {
        String[] arguments = new String[1 + 2 * CrawlFields.ARGUMENTS];
        arguments[0] = "before";
        new CrawlFields("a", "c", -9, "17").writeTo(arguments, 1);
        CrawlFields.writeNone(arguments, 1 + CrawlFields.ARGUMENTS);
        assertArrayEquals(new String[] {"before", "a", "c", "-9", "17", "", "", "", ""}, arguments);
    }
}
