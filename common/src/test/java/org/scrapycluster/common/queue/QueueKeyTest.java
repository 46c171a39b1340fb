package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QueueKeyTest {

    @Test
    void readsSpiderAndDomain() {
        QueueKey key = QueueKey.parse("link:example.com:queue");
        assertEquals(new QueueKey("link", "example.com"), key);
        assertEquals("link:example.com:queue", key.key());
    }

    @Test
    void domainMayContainColons() {
        QueueKey key = QueueKey.parse("link:[::1].:queue");
        assertEquals("link", key.spiderId());
        assertEquals("[::1].", key.domain());
        assertEquals("link:[::1].:queue", key.key());
        assertEquals("127.0.0.1.", QueueKey.parse("wandering:127.0.0.1.:queue").domain());
    }

    @Test
    void refusesWhatIsNotAQueueKey() {
        for (String bad : new String[] {"link:example.com", ":example.com:queue", "link::queue", "link:queue", "queue",
                "link:example.com:queued", ""}) {
            assertTrue(QueueKey.tryParse(bad).isEmpty(), bad);
            assertThrows(IllegalArgumentException.class, () -> QueueKey.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> new QueueKey("li:nk", "example.com"));
        assertThrows(IllegalArgumentException.class, () -> new QueueKey("link", ""));
    }
}
