package org.scrapycluster.common.python;

import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * Python's {@code float(text)}: the number a text holds as Python reads it, for a value the original converts so. The
 * text may have white space around it (Python's, {@link PythonRegex#SPACE}), digits of any script, a sign, a point,
 * an exponent and single underscores between digits ({@code ' 60 '}, {@code 1e3}, {@code 1_000}, {@code ١٢}), or be
 * {@code inf}, {@code infinity} or {@code nan} in any case. Java's own parser takes other forms ({@code 1d},
 * {@code 0x1p3}) and refuses some of these.
 */
public final class PythonFloat {

    private static final Pattern SPACE = Pattern.compile(PythonRegex.SPACE);
    private static final String DIGITS = "[0-9](?:_?[0-9])*";
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:(?:" + DIGITS + "\\.(?:" + DIGITS + ")?|\\." + DIGITS + "|" + DIGITS + ")"
            + "(?:[eE][-+]?" + DIGITS + ")?|inf|infinity|nan)", Pattern.CASE_INSENSITIVE);

    private PythonFloat() {
    }

    /** The number {@code float(text)} gives, or empty where it raises {@code ValueError}. */
    public static OptionalDouble parse(String text) {
        String ascii = SPACE.matcher(text).replaceAll(" ").strip();
        StringBuilder digits = new StringBuilder(ascii.length());
        for (int i = 0; i < ascii.length(); ) {
            int codePoint = ascii.codePointAt(i);
            int digit = Character.getType(codePoint) == Character.DECIMAL_DIGIT_NUMBER ? Character.digit(codePoint, 10) : -1;
            digits.append(digit >= 0 ? (char) ('0' + digit) : codePoint > 0x7f ? '?' : (char) codePoint);
            i += Character.charCount(codePoint);
        }
        String number = digits.toString();
        if (!NUMBER.matcher(number).matches()) {
            return OptionalDouble.empty();
        }
        String plain = number.replace("_", "").toLowerCase(Locale.ROOT);
        String unsigned = plain.startsWith("-") || plain.startsWith("+") ? plain.substring(1) : plain;
        double magnitude = switch (unsigned) {
            case "inf", "infinity" -> Double.POSITIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(unsigned);
        };
        return OptionalDouble.of(plain.startsWith("-") ? -magnitude : magnitude);
    }
}
