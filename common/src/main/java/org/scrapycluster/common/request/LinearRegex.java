package org.scrapycluster.common.request;

import java.util.ArrayDeque;
import java.util.Deque;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * Compiles a regular expression from a crawl request ({@code allow_regex}, {@code deny_regex}) with RE2/J, which
 * matches in linear time, once its cost to compile is known to be bounded. RE2/J bounds neither: its compiler
 * recurses once per nested group, so a few thousand nested groups overflow a thread's stack, and it expands
 * counted repetitions, so the 23 characters {@code ((a{1000}){1000}){1000}} ask for a program of a billion
 * instructions. Before compiling, the text is read once to find its deepest nesting of groups and an upper
 * bound of the program's size (each atom one instruction, {@code x{n,m}} as {@code m} copies of {@code x},
 * {@code *}, {@code +} and {@code ?} one copy more); either over its limit refuses the regex.
 */
public final class LinearRegex {

    /** Deepest nesting of groups taken; a URL pattern needs a handful. */
    public static final int MAX_NESTING = 100;

    /** Largest program taken, in instructions: {@code [a-z]{1,1000}} is 1,000, {@code (\d{3}-){100}} 500. */
    public static final int MAX_PROGRAM_SIZE = 100_000;

    /**
     * Most regexes one request may carry, {@code allow_regex} and {@code deny_regex} together: each costs a compile
     * whatever its size, and a request carries a handful.
     */
    public static final int MAX_PER_REQUEST = 1_000;

    /**
     * Most characters of all the regexes of one request together: RE2/J's parser copies the rest of the text at many
     * steps, so its time grows with the square of a regex's length whatever its program (200,000 characters of
     * {@code [:}, a program of one instruction, took 11.8 s to refuse); 20,000 characters take it about a tenth of a
     * second, and a request's URL patterns need a few hundred.
     */
    public static final int MAX_LENGTH_PER_REQUEST = 20_000;

    /**
     * Largest program of all the regexes of one request together, in instructions: twice what one may have. Compiling
     * costs about 4 ms per 100,000 instructions, so that 2,000 regexes of 17 characters each at the limit of one
     * ({@code (a{999}){99}1}) took 7.9 s, and a megabyte of them would hold the monitor for minutes.
     */
    public static final int MAX_PROGRAM_SIZE_PER_REQUEST = 2 * MAX_PROGRAM_SIZE;

    private LinearRegex() {
    }

    /**
     * The compiled {@code regex}.
     *
     * @throws PatternSyntaxException when RE2/J refuses it, or it nests or expands beyond the limits
     */
    public static Pattern compile(String regex) {
        programSize(regex);
        return Pattern.compile(regex);
    }

    /**
     * An upper bound of the size of {@code regex}'s program, in instructions, read without compiling it.
     *
     * @throws PatternSyntaxException when it nests or expands beyond the limits of one regex
     */
    public static long programSize(String regex) {
        CostReader reader = new CostReader(regex);
        reader.check();
        return reader.size;
    }

    /** Reads a regex's text once for its nesting and its program's size, without parsing it fully. */
    private static final class CostReader {

        /** Most digits of a count in {@code {n,m}}: RE2/J refuses any count above 1,000. */
        private static final int MAX_COUNT_DIGITS = 4;
        /** {@link #posixClassClose} has not searched yet. */
        private static final int NOT_SEARCHED = -2;

        private final String regex;
        /** The size so far of each group around the one being read, and of its last atom. */
        private final Deque<long[]> outer = new ArrayDeque<>();
        private long size;
        private long last;
        private int at;
        /** Where the last search for {@code :]} found it, -1 when it found none, or {@link #NOT_SEARCHED}. */
        private int posixClose = NOT_SEARCHED;

        CostReader(String regex) {
            this.regex = regex;
        }

        void check() {
            while (at < regex.length()) {
                step(regex.charAt(at));
                if (outer.size() > MAX_NESTING) {
                    throw new PatternSyntaxException("groups nested more than " + MAX_NESTING + " deep", regex);
                }
                if (size > MAX_PROGRAM_SIZE) {
                    throw new PatternSyntaxException("its repetitions expand to more than " + MAX_PROGRAM_SIZE
                            + " instructions", regex);
                }
            }
        }

        private void step(char c) {
            switch (c) {
                case '\\' -> atom(escapeEnd(at));
                case '[' -> atom(classEnd(at));
                case '(' -> {
                    outer.push(new long[] {size, last});
                    size = 0;
                    last = 0;
                    at++;
                }
                case ')' -> closeGroup();
                case '|' -> {
                    last = 0;
                    at++;
                }
                case '*', '+', '?' -> repeat(at + 1, 2);
                case '{' -> countedRepetition();
                default -> atom(at + 1);
            }
        }

        /** One instruction for what stands from here to {@code end}. */
        private void atom(int end) {
            size++;
            last = 1;
            at = end;
        }

        private void closeGroup() {
            at++;
            if (outer.isEmpty()) {
                return; // unbalanced: RE2/J says so
            }
            long group = Math.max(size, 1);
            long[] around = outer.pop();
            size = around[0] + group;
            last = group;
        }

        /**
         * {@code {n}}, {@code {n,}} or {@code {n,m}} after an atom, each count of at most {@link #MAX_COUNT_DIGITS}
         * digits; anything else is a literal brace. Read forward from the brace no further than such a repetition
         * reaches, not up to the first {@code }} of the text: searching the rest of the text for it, and splitting
         * what came before it, for each brace made 200,000 braces without a {@code }} take 0.6 s, and a million
         * braces then a {@code }} 19 s.
         */
        private void countedRepetition() {
            int lowStart = at + 1;
            int lowEnd = digitsEnd(lowStart);
            boolean upTo = lowEnd < regex.length() && regex.charAt(lowEnd) == ',';
            int highStart = upTo ? lowEnd + 1 : lowEnd;
            int close = upTo ? digitsEnd(highStart) : lowEnd;
            if (!isCount(lowStart, lowEnd) || upTo && close > highStart && !isCount(highStart, close)
                    || close >= regex.length() || regex.charAt(close) != '}') {
                atom(at + 1);
                return;
            }
            long least = Long.parseLong(regex, lowStart, lowEnd, 10);
            long most = !upTo ? least : close == highStart ? least + 1 : Long.parseLong(regex, highStart, close, 10);
            repeat(close + 1, Math.max(most, 1));
        }

        /** Where the digits from {@code start} end, looking at one more than a count may have. */
        private int digitsEnd(int start) {
            int i = start;
            while (i < regex.length() && i - start <= MAX_COUNT_DIGITS && Character.isDigit(regex.charAt(i))) {
                i++;
            }
            return i;
        }

        /** Whether the text from {@code start} to {@code end} is a count: one to {@link #MAX_COUNT_DIGITS} digits. */
        private static boolean isCount(int start, int end) {
            return end > start && end - start <= MAX_COUNT_DIGITS;
        }

        /** The last atom taken {@code copies} times in all; a lazy {@code ?} after the operator adds nothing. */
        private void repeat(int end, long copies) {
            size += last * (copies - 1);
            last *= copies;
            at = end < regex.length() && regex.charAt(end) == '?' ? end + 1 : end;
        }

        /** Where the escape at {@code start} ends: {@code \Q…\E}, {@code \p{…}} and {@code \x{…}} span more. */
        private int escapeEnd(int start) {
            if (start + 1 >= regex.length()) {
                return regex.length();
            }
            char kind = regex.charAt(start + 1);
            if (kind == 'Q') {
                int end = regex.indexOf("\\E", start + 2);
                int quotedEnd = end < 0 ? regex.length() : end;
                size += quotedEnd - (start + 2); // each quoted character is an instruction
                return end < 0 ? regex.length() : end + 2;
            }
            if ((kind == 'p' || kind == 'P' || kind == 'x') && start + 2 < regex.length() && regex.charAt(start + 2) == '{') {
                int close = regex.indexOf('}', start + 3);
                return close < 0 ? regex.length() : close + 1;
            }
            return start + 2;
        }

        /** Where the character class opened at {@code start} ends, one past its {@code ]}. */
        private int classEnd(int start) {
            int i = start + 1;
            if (i < regex.length() && regex.charAt(i) == '^') {
                i++;
            }
            if (i < regex.length() && regex.charAt(i) == ']') {
                i++; // a ] first is a literal
            }
            while (i < regex.length()) {
                char c = regex.charAt(i);
                if (c == '\\') {
                    i = escapeEnd(i);
                } else if (c == '[' && i + 1 < regex.length() && regex.charAt(i + 1) == ':') {
                    int close = posixClassClose(i + 2);
                    i = close < 0 ? i + 1 : close + 2;
                } else if (c == ']') {
                    return i + 1;
                } else {
                    i++;
                }
            }
            return regex.length();
        }

        /**
         * Where the first {@code :]} at or after {@code from} starts, or -1 when none does: the end of a POSIX class
         * such as {@code [:alpha:]}. The reading only moves forward, so a {@code :]} found for an earlier {@code [:}
         * is still the first, and none found is still none: the text is searched once in all, not to its end for
         * each {@code [:}, which made 200,000 characters of {@code [:} take 2.9 s.
         */
        private int posixClassClose(int from) {
            if (posixClose == NOT_SEARCHED || posixClose >= 0 && posixClose < from) {
                posixClose = regex.indexOf(":]", from);
            }
            return posixClose;
        }
    }
}
