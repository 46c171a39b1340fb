package org.scrapycluster.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Numbers as Python writes them; the expected texts are Python 3.11's {@code repr} and {@code yaml.safe_dump}'s. */
class PythonNumbersTest {

    @ParameterizedTest
    @CsvSource({
            "1764441234.567, 1764441234.567",
            "1e308, 1e+308",
            "1e-5, 1e-05",
            "0.0001, 0.0001",
            "0.00012345, 0.00012345",
            "1e16, 1e+16",
            "1e15, 1000000000000000.0",
            "1234567890123456, 1234567890123456.0",
            "12345678901234567, 1.2345678901234568e+16",
            "0.5, 0.5",
            "60, 60.0",
            "-2.5, -2.5",
            "-0.0, -0.0",
            "1e9, 1000000000.0",
            "1.5e16, 1.5e+16",
            "1.7976931348623157e308, 1.7976931348623157e+308",
            "0.30000000000000004, 0.30000000000000004",
    })
    void aFloatIsWrittenAsPythonsReprWritesIt(double value, String python) {
        assertEquals(python, PythonNumbers.repr(value));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "1.0, 1.0",
        "0.9, 0.9",
        "0.0, 0.0",
        "-0.0, -0.0",
        "0.30000000000000004, 0.30000000000000004",
        "0.0001, 0.0001",
        "0.00001, 1.0e-05",
        "0.00000015, 1.5e-07",
        "1e15, 1000000000000000.0",
        "1e16, 1.0e+16",
        "123456789012345.6, 123456789012345.6",
        "60, 60.0",
        "NaN, .nan",
        "Infinity, .inf",
        "-Infinity, -.inf",
    })
    void aFloatInYamlIsWrittenAsPyYamlWritesIt(double value, String expected) {
        assertEquals(expected, PythonNumbers.yaml(value));
    }

    @Test
    void notANumberAndTheInfinitiesHaveThePythonNames() {
        assertEquals("nan", PythonNumbers.repr(Double.NaN));
        assertEquals("inf", PythonNumbers.repr(Double.POSITIVE_INFINITY));
        assertEquals("-inf", PythonNumbers.repr(Double.NEGATIVE_INFINITY));
    }

    @Test
    void aWholeNumberIsItsDigits() {
        assertEquals("42", PythonNumbers.repr(Integer.valueOf(42)));
        assertEquals("-9223372036854775808", PythonNumbers.repr(Long.valueOf(Long.MIN_VALUE)));
        assertEquals("123456789012345678901234567890", PythonNumbers.repr(new BigInteger("123456789012345678901234567890")));
        assertEquals("0.1", PythonNumbers.repr(new BigDecimal("0.1")), "a decimal is a fraction");
        assertEquals("1e+308", PythonNumbers.repr(1e308d), "a boxed double too");
    }
}
