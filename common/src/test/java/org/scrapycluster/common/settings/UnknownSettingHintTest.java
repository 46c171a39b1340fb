package org.scrapycluster.common.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The declared name an unknown one most likely misspells: the fewest letters away, at most two. */
class UnknownSettingHintTest {

    @Test
    void editsCountInsertionsDeletionsAndReplacements() {
        assertEquals(0, UnknownSettingHint.edits("QUEUE_HITS", "QUEUE_HITS"));
        assertEquals(1, UnknownSettingHint.edits("QUEUE_HITZ", "QUEUE_HITS"));
        assertEquals(1, UnknownSettingHint.edits("ZOOKEEPER_HOST", "ZOOKEEPER_HOSTS"));
        assertEquals(2, UnknownSettingHint.edits("QUEUE_HIST", "QUEUE_HITS"), "a swap is two replacements");
        assertEquals(10, UnknownSettingHint.edits("", "QUEUE_HITS"));
    }

    @Test
    void theClosestNameWinsAndTiesGoInNameOrder() {
        assertEquals("; did you mean QUEUE_HITS?",
                UnknownSettingHint.of("QUEUE_HITZ", List.of("QUEUE_WINDOW", "QUEUE_HITS", "QUEUE_HITS_MAX")));
        assertEquals("; did you mean A_B?", UnknownSettingHint.of("A_X", List.of("A_C", "A_B")));
    }

    @Test
    void theCrawlersNameForAnotherServicesLoggingSettingIsNamed() {
        assertEquals("; did you mean SC_LOG_LEVEL? (the crawler's names for the other services' LOG_LEVEL, as in the original)",
                UnknownSettingHint.of("LOG_LEVEL", List.of("SC_LOG_LEVEL", "SC_LOG_JSON", "QUEUE_HITS")));
    }
}
