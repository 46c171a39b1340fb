package org.scrapycluster.common.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Numbers written the way Python writes them, for the readers that expect it: a message that quotes a request's or a
 * config's number ({@link #repr}: {@code 1764441234.567} and {@code 1e+308}, not Java's {@code 1.764441234567E9} and
 * {@code 1.0E308}), and a config written byte for byte as the original writes it ({@link #yaml}, PyYAML's floats).
 */
public final class PythonNumbers {

    /** Python writes a float in full while the exponent of its first digit is within these, else with an exponent. */
    private static final int SMALLEST_FIXED_EXPONENT = -4;
    private static final int LARGEST_FIXED_EXPONENT = 15;

    private PythonNumbers() {
    }

    /** {@code number} as Python's {@code repr} writes it: a fraction as {@link #repr(double)}, a whole number as its digits. */
    public static String repr(Number number) {
        return switch (number) {
            case Double fraction -> repr(fraction.doubleValue());
            case Float fraction -> repr(fraction.doubleValue());
            case BigDecimal decimal -> repr(decimal.doubleValue());
            default -> number.toString();
        };
    }

    /** {@code value} as Python's {@code repr} writes a float: {@code 0.5}, {@code 60.0}, {@code 1e-05}, {@code 1.5e+16}, {@code inf}. */
    public static String repr(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0.0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal decimal = shortest(Math.abs(value));
        String digits = decimal.unscaledValue().toString();
        int exponent = digits.length() - 1 - decimal.scale();
        String sign = value < 0 ? "-" : "";
        if (exponent < SMALLEST_FIXED_EXPONENT || exponent > LARGEST_FIXED_EXPONENT) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
        }
        if (exponent < 0) {
            return sign + "0." + "0".repeat(-exponent - 1) + digits;
        }
        if (digits.length() <= exponent + 1) {
            return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
        }
        return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
    }

    /**
     * The fewest significant digits that read back as {@code value}, the closest to it of those, as Python's
     * {@code repr} takes them. {@code Double.toString} takes these too, but never fewer than two: where one digit is
     * enough and is not followed by a 0, as for the smallest doubles, it keeps two ({@code 4.9E-324}, where Python
     * writes {@code 5e-324}).
     */
    private static BigDecimal shortest(double positive) {
        BigDecimal decimal = new BigDecimal(Double.toString(positive)).stripTrailingZeros();
        if (decimal.precision() == 2) {
            BigDecimal oneDigit = new BigDecimal(positive).round(new MathContext(1, RoundingMode.HALF_EVEN));
            if (oneDigit.doubleValue() == positive) {
                return oneDigit.stripTrailingZeros();
            }
        }
        return decimal;
    }

    /**
     * {@code value} as PyYAML writes a Python float: its {@code repr}, with {@code .0} before an exponent the mantissa
     * has no point for ({@code 1.0e-05}), and {@code .nan}, {@code .inf}, {@code -.inf}.
     */
    public static String yaml(double value) {
        if (Double.isNaN(value)) {
            return ".nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? ".inf" : "-.inf";
        }
        String repr = repr(value);
        int exponent = repr.indexOf('e');
        return exponent < 0 || repr.lastIndexOf('.', exponent) >= 0 ? repr : repr.substring(0, exponent) + ".0" + repr.substring(exponent);
    }
}
