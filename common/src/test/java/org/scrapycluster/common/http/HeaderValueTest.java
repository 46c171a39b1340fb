package org.scrapycluster.common.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class HeaderValueTest {

    @Test
    void aLineBreakOrANulCannotBeCarriedAndIsNamedWithWhereItIs() {
        assertEquals(Optional.of("U+000D at character 4"), HeaderValue.whyNot("a=1\r\nX-Injected: yes"));
        assertEquals(Optional.of("U+000A at character 3"), HeaderValue.whyNot("UA\nX-Inj2: 1"));
        assertEquals(Optional.of("U+0000 at character 1"), HeaderValue.whyNot("\0bot"));
    }

    @Test
    void anyOtherTextCan() {
        assertEquals(Optional.empty(), HeaderValue.whyNot("Mozilla/5.0 (X11; Linux x86_64)\tété ☃"));
        assertEquals(Optional.empty(), HeaderValue.whyNot("a=1; b=2"));
        assertEquals(Optional.empty(), HeaderValue.whyNot(""));
    }
}
