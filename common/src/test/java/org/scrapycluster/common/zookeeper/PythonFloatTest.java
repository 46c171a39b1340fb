package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PythonFloatTest {

    /** Expected values are what {@code yaml.safe_dump} prints for the Python float. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "1.0, 1.0",
        "0.9, 0.9",
        "0.5, 0.5",
        "0.0, 0.0",
        "-0.0, -0.0",
        "0.30000000000000004, 0.30000000000000004",
        "0.0001, 0.0001",
        "0.00001, 1.0e-05",
        "0.00000015, 1.5e-07",
        "1e15, 1000000000000000.0",
        "1e16, 1.0e+16",
        "123456789012345.6, 123456789012345.6",
        "-2.5, -2.5",
        "60, 60.0",
        "NaN, .nan",
        "Infinity, .inf",
        "-Infinity, -.inf",
    })
    void writesFloatsAsPyYamlDoes(double value, String expected) {
        assertEquals(expected, PythonFloat.yaml(value));
    }
}
