package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which requests a job answers, from its waiting list and its key's value. */
class WaitersTest {

    @Test
    void theListedValuesInOrderEachOnceWithTheKeysValueAmongThem() {
        Waiters waiters = new Waiters("info:link:app", List.of("u1", "u2", "u1", "u3"), "u3");
        assertEquals(List.of("u1", "u2", "u3"), waiters.values(), "a value written twice (a batch written again) is answered once");
        assertEquals(List.of("u1", "u2", "u1", "u3"), waiters.listed(), "every entry read is taken off the list");
        assertEquals(List.of(new Job("info:link:app", "u1"), new Job("info:link:app", "u2"), new Job("info:link:app", "u3")),
                waiters.jobs());
    }

    @Test
    void aKeyWrittenWithoutTheListIsAnsweredAfterTheListedValues() {
        assertEquals(List.of("u1", "python"), new Waiters("stop:link:app:c1", List.of("u1"), "python").values());
        assertEquals(List.of("only"), new Waiters("stop:link:app:c1", List.of(), "only").values());
        assertEquals(List.of(), new Waiters("stop:link:app:c1", List.of(), "only").listed());
    }
}
