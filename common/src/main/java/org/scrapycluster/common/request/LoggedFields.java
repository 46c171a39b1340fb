package org.scrapycluster.common.request;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.common.logging.ShownText;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.primitives.Bytes;

/**
 * What a log line shows of a request's fields: each as the request has it, but for the values that are a site's
 * credentials. A crawl's {@code cookie} is the session it crawls with, which whoever reads the logs could otherwise
 * replay; the field is shown with {@link #REDACTED} for its value, so that a reader still sees the request had one
 * (docs/security.md).
 */
public final class LoggedFields {

    /** What a log line shows in place of a credential. */
    public static final String REDACTED = "[redacted]";

    private static final Set<String> CREDENTIALS = Set.of("cookie");
    private static final byte[] UNICODE_ESCAPE = {'\\', 'u'};
    /** A credential's name in quotes, its colon and its quoted value up to its closing quote or the end of the text. */
    private static final Pattern QUOTED_CREDENTIAL = Pattern.compile("([\"'](?:" + String.join("|", CREDENTIALS)
            + ")[\"']\\s*:\\s*)([\"'])(?:(?!\\2)[^\\\\]|\\\\.)*+\\2?", Pattern.DOTALL);

    private LoggedFields() {
    }

    /** What a log line shows of the top-level field {@code name} of a request whose value is {@code value}. */
    public static Object shown(String name, Object value) {
        return value != null && CREDENTIALS.contains(name) ? REDACTED : value;
    }

    /**
     * Whether JSON text {@code utf8} may hold a credential, so that it is worth reading to show it: a field name that
     * is a credential is either spelled out in it or written with a Unicode escape (a backslash, {@code u} and four
     * hexadecimal digits).
     */
    public static boolean mayHoldCredential(byte[] utf8) {
        return Bytes.indexOf(utf8, UNICODE_ESCAPE) >= 0
                || CREDENTIALS.stream().anyMatch(name -> Bytes.indexOf(utf8, name.getBytes(StandardCharsets.US_ASCII)) >= 0);
    }

    /** {@code request} as a log line shows it: itself when it holds no credential, else a copy with them redacted. */
    public static JsonNode shown(JsonNode request) {
        if (!(request instanceof ObjectNode object) || CREDENTIALS.stream().noneMatch(name -> holds(object, name))) {
            return request;
        }
        ObjectNode copy = object.deepCopy();
        CREDENTIALS.stream().filter(name -> holds(object, name)).forEach(name -> copy.put(name, REDACTED));
        return copy;
    }

    /**
     * Text that did not read as JSON, as a log line shows it: the quoted value of each credential found in it replaced by
     * {@link #REDACTED}, in double quotes or single (a Python dict sent as it prints). Best effort, as the text has no
     * structure to go by: a value without quotes is not found.
     */
    public static String redactedText(String text) {
        return QUOTED_CREDENTIAL.matcher(text).replaceAll(found -> Matcher.quoteReplacement(found.group(1) + found.group(2) + REDACTED
                + found.group(2)));
    }

    /**
     * {@code request}'s JSON as a log line shows it ({@link #shown(JsonNode)}), cut as {@link ShownText} cuts a long text:
     * a caller whose request is refused later cannot write a megabyte a line.
     */
    public static String text(JsonNode request) {
        return ShownText.cut(shown(request).toString());
    }

    private static boolean holds(ObjectNode request, String name) {
        JsonNode value = request.get(name);
        return value != null && !value.isNull();
    }
}
