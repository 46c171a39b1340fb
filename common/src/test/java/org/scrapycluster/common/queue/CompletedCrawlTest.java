package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompletedCrawlTest {

    @Test
    void readsWhatTheRetireScriptFiles() {
        String entry = "[\"link\",\"my:app\",\"c|1\",245]";
        assertEquals(new CompletedCrawl(new CrawlRef("link", "my:app", "c|1"), 245, OptionalLong.empty(), entry), CompletedCrawl.parse(entry));
    }

    @Test
    void readsTheCrawlsStartWhenTheScriptFiledOne() {
        String entry = "[\"link\",\"app\",\"c1\",3,1796131949]";
        assertEquals(new CompletedCrawl(new CrawlRef("link", "app", "c1"), 3, OptionalLong.of(1796131949), entry), CompletedCrawl.parse(entry));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "link:app:c1", "[\"link\",\"app\",\"c1\"]", "[\"link\",\"app\",\"c1\",\"245\"]", "[\"link\",1,\"c1\",2]",
        "{\"spiderid\":\"link\"}", "[\"link\",\"app\",\"c1\",2.5]",
        "[\"link\",\"app\",\"c1\",2,\"1796131949\"]", "[\"link\",\"app\",\"c1\",2,1796131949,0]"})
    void refusesAnythingElse(String entry) {
        assertThrows(IllegalArgumentException.class, () -> CompletedCrawl.parse(entry));
    }
}
