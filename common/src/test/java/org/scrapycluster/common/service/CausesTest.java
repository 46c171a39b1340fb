package org.scrapycluster.common.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

/** The causes under a failure, as a message or a decision looks for them. */
class CausesTest {

    private final FileNotFoundException missing = new FileNotFoundException("crawl.jsonl (No such file or directory)");
    private final CompletionException wrapped = new CompletionException(new UncheckedIOException("cannot read", missing));

    @Test
    void theInnermostIsTheLastCauseOrTheFailureItself() {
        assertSame(missing, Causes.innermost(wrapped));
        assertSame(missing, Causes.innermost(missing));
    }

    @Test
    void theFirstOfAKindIsLookedForFromTheFailureDown() {
        assertEquals(Optional.of(missing), Causes.first(wrapped, IOException.class));
        assertEquals(Optional.of(wrapped), Causes.first(wrapped, RuntimeException.class), "the failure itself comes first");
        assertEquals(Optional.empty(), Causes.first(wrapped, InterruptedException.class));
    }
}
