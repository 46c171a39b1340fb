package org.scrapycluster.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Numbers as Python writes them; the expected texts are Python 3.11's {@code repr} and {@code yaml.safe_dump}'s. */
class PythonNumbersTest {

    /** The value as a Java double literal reads it; what {@code repr} prints; what {@code yaml.safe_dump} prints. */
    @ParameterizedTest(name = "{0} -> {1}, {2}")
    @CsvSource({
        "1764441234.567, 1764441234.567, 1764441234.567",
        "1e308, 1e+308, 1.0e+308",
        "1e-5, 1e-05, 1.0e-05",
        "0.00000015, 1.5e-07, 1.5e-07",
        "0.0001, 0.0001, 0.0001",
        "0.00012345, 0.00012345, 0.00012345",
        "1e16, 1e+16, 1.0e+16",
        "1e15, 1000000000000000.0, 1000000000000000.0",
        "1234567890123456, 1234567890123456.0, 1234567890123456.0",
        "12345678901234567, 1.2345678901234568e+16, 1.2345678901234568e+16",
        "123456789012345.6, 123456789012345.6, 123456789012345.6",
        "1.7976931348623157e308, 1.7976931348623157e+308, 1.7976931348623157e+308",
        "0.30000000000000004, 0.30000000000000004, 0.30000000000000004",
        "0.5, 0.5, 0.5",
        "60, 60.0, 60.0",
        "1e9, 1000000000.0, 1000000000.0",
        "-2.5, -2.5, -2.5",
        "0.0, 0.0, 0.0",
        "-0.0, -0.0, -0.0",
        "4.9e-324, 5e-324, 5.0e-324",
        "9.9e-324, 1e-323, 1.0e-323",
        "1.5e-323, 1.5e-323, 1.5e-323",
        "NaN, nan, .nan",
        "Infinity, inf, .inf",
        "-Infinity, -inf, -.inf",
    })
    void aFloatIsWrittenAsPythonWritesIt(double value, String repr, String yaml) {
        assertEquals(repr, PythonNumbers.repr(value));
        assertEquals(yaml, PythonNumbers.yaml(value));
    }

    @Test
    void digitsAreAsciiWhateverTheDefaultLocale() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("fa-IR")); // whose digits are Persian: ۰۵ for 05
        try {
            assertEquals("1e-05", PythonNumbers.repr(0.00001));
            assertEquals("1.5e+16", PythonNumbers.repr(1.5e16));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void aWholeNumberIsItsDigits() {
        assertEquals("42", PythonNumbers.repr(Integer.valueOf(42)));
        assertEquals("-9223372036854775808", PythonNumbers.repr(Long.valueOf(Long.MIN_VALUE)));
        assertEquals("123456789012345678901234567890", PythonNumbers.repr(new BigInteger("123456789012345678901234567890")));
        assertEquals("0.1", PythonNumbers.repr(new BigDecimal("0.1")), "a decimal is a fraction");
        assertEquals("1e+308", PythonNumbers.repr(Double.valueOf(1e308)), "a boxed double too");
    }
}
