package org.scrapycluster.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PortTest {

    @Test
    void aClientConnectsFromOneAndAListenerBindsFromZero() {
        assertFalse(Port.isConnectable(0));
        assertTrue(Port.isConnectable(1));
        assertTrue(Port.isConnectable(65_535));
        assertFalse(Port.isConnectable(65_536));
        assertTrue(Port.isListenable(0), "any free port");
        assertTrue(Port.isListenable(65_535));
        assertFalse(Port.isListenable(-1));
        assertFalse(Port.isListenable(65_536));
    }

    @Test
    void parsesOneToFiveDigitsUpToTheLargestPort() {
        assertEquals(OptionalInt.of(0), Port.parse("0"));
        assertEquals(OptionalInt.of(80), Port.parse("080"));
        assertEquals(OptionalInt.of(65_535), Port.parse("65535"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "65536", "99999", "000080", "+80", "-1", " 80", "80 ", "8a", "\u0668\u0660"})
    void refusesWhatIsNoPort(String text) {
        assertEquals(OptionalInt.empty(), Port.parse(text), text);
    }
}
