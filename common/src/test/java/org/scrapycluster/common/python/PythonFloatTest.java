package org.scrapycluster.common.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalDouble;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The texts and answers are Python 3.11's {@code float(text)}. */
class PythonFloatTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "60 | 60.0", "' 30 ' | 30.0", "1e3 | 1000.0", "1.5e3 | 1500.0", "1_000 | 1000.0", "1e1_0 | 1.0E10",
        "\u0661\u0662 | 12.0", "\u0e51 | 1.0", "'\u00a012\u3000' | 12.0", "1. | 1.0", ".5 | 0.5", "-2.5 | -2.5",
        "inf | Infinity", "-Infinity | -Infinity", "nan | NaN",
    })
    void readsWhatPythonReads(String text, double number) {
        assertEquals(OptionalDouble.of(number), PythonFloat.parse(text));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1__0", "_1", "1_", "0x10", "1d", "0x1p3", ".", "e5", "1e", "+-1", "", "ten", "1 0", "\u00e9"})
    void refusesWhatPythonRefuses(String text) {
        assertEquals(OptionalDouble.empty(), PythonFloat.parse(text));
    }
}
