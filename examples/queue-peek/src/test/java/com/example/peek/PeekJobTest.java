package com.example.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PeekJobTest {

    @Test
    void aJobKeyNamesItsPeekAndReadsBackAsIt() {
        PeekJob job = new PeekJob("link", "Shop.Example", "testapp", 5);
        assertEquals("peek:link:shop.example:testapp:5", job.key());
        assertEquals(job, PeekJob.parse(job.key()));
    }

    @Test
    void keysOfAnotherShapeAreRefusedSayingWhichShapeIsExpected() {
        for (String key : new String[] {"peek:link:shop.example:testapp", "info:link:testapp:1", "peek:link::testapp:5",
                "peek:link:shop.example:testapp:5:extra"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PeekJob.parse(key), key);
            assertEquals("The job key " + key + " is not peek:<spiderid>:<domain>:<appid>:<count>", e.getMessage());
        }
        assertEquals("The job key peek:link:shop.example:testapp:many has no whole count at its end",
                assertThrows(IllegalArgumentException.class, () -> PeekJob.parse("peek:link:shop.example:testapp:many")).getMessage());
        assertEquals("count must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> PeekJob.parse("peek:link:shop.example:testapp:0")).getMessage());
    }
}
