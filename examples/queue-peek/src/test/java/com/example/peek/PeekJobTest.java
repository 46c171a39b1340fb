package com.example.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.RejectedJobException;

class PeekJobTest {

    @Test
    void aJobKeyNamesItsPeekAndReadsBackAsIt() {
        PeekJob job = new PeekJob("link", "Shop.Example", "testapp", 5);
        assertEquals("peek:link:shop.example:testapp:5", job.key());
        assertEquals(job, PeekJob.of(new Job(job.key(), "p1")));
    }

    @Test
    void keysOfAnotherShapeAreRefusedSayingWhichShapeIsExpected() {
        for (String key : new String[] {"peek:link:shop.example:testapp", "info:link:testapp:1", "peek:link::testapp:5",
                "peek:link:shop.example:testapp:5:extra"}) {
            RejectedJobException e = assertThrows(RejectedJobException.class, () -> PeekJob.of(new Job(key, "p1")), key);
            assertEquals("The job key " + key + " is not peek:<spiderid>:<domain>:<appid>:<count>", e.getMessage());
        }
        assertEquals("The job key peek:link:shop.example:testapp:many has no whole count at its end",
                assertThrows(RejectedJobException.class, () -> PeekJob.of(new Job("peek:link:shop.example:testapp:many", "p1"))).getMessage());
        assertEquals("count must be at least 1, was 0",
                assertThrows(RejectedJobException.class, () -> PeekJob.of(new Job("peek:link:shop.example:testapp:0", "p1"))).getMessage());
    }
}
