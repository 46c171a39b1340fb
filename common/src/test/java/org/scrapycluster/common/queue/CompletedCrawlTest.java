package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompletedCrawlTest {

    @Test
    void readsWhatTheRetireScriptFiles() {
        String entry = "[\"link\",\"my:app\",\"c|1\",245]";
        assertEquals(new CompletedCrawl(new CrawlRef("link", "my:app", "c|1"), 245, entry), CompletedCrawl.parse(entry));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "link:app:c1", "[\"link\",\"app\",\"c1\"]", "[\"link\",\"app\",\"c1\",\"245\"]", "[\"link\",1,\"c1\",2]",
        "{\"spiderid\":\"link\"}", "[\"link\",\"app\",\"c1\",2.5]"})
    void refusesAnythingElse(String entry) {
        assertThrows(IllegalArgumentException.class, () -> CompletedCrawl.parse(entry));
    }
}
