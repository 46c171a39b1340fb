package org.scrapycluster.common.zookeeper;

import java.math.BigDecimal;

/**
 * Writes a double the way PyYAML writes a Python float, so that a config we write is byte for
 * byte the config the original writes: Python's shortest {@code repr} ({@code 0.9}, {@code 1.0},
 * {@code 0.0001}, {@code 1e-05}), plus PyYAML's {@code .0} before an exponent ({@code 1.0e-05})
 * and its {@code .inf} / {@code .nan}.
 */
final class PythonFloat {

    private static final int SMALLEST_FIXED_EXPONENT = -4;
    private static final int LARGEST_FIXED_EXPONENT = 15;

    private PythonFloat() {
    }

    static String yaml(double value) {
        if (Double.isNaN(value)) {
            return ".nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? ".inf" : "-.inf";
        }
        if (value == 0.0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        // Double.toString gives the shortest digits that read back as the same double, as Python's repr does.
        BigDecimal decimal = new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
        String digits = decimal.unscaledValue().toString();
        int exponent = digits.length() - 1 - decimal.scale();
        String sign = value < 0 ? "-" : "";
        if (exponent < SMALLEST_FIXED_EXPONENT || exponent > LARGEST_FIXED_EXPONENT) {
            String mantissa = digits.length() == 1 ? digits + ".0" : digits.charAt(0) + "." + digits.substring(1);
            String power = String.format("%02d", Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + power;
        }
        if (exponent < 0) {
            return sign + "0." + "0".repeat(-exponent - 1) + digits;
        }
        if (digits.length() <= exponent + 1) {
            return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
        }
        return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
    }
}
