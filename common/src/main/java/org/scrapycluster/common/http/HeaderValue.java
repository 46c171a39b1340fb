package org.scrapycluster.common.http;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a string can be sent as an HTTP header value. A carriage return or a line feed would end the header's line
 * and start another, a header nobody asked for, and a NUL is refused by servers; so the crawler sends no request
 * holding one, and the Kafka monitor refuses at intake a request whose {@code cookie} or {@code useragent}, sent as
 * headers, holds one: accepted, it could never be fetched (docs/api.md, "Rules every request follows").
 */
public final class HeaderValue {

    private HeaderValue() {
    }

    /** Why {@code value} cannot be a header value (its first character HTTP cannot carry, and where), or empty when it can. */
    public static Optional<String> whyNot(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                return Optional.of(String.format(Locale.ROOT, "U+%04X at character %d", (int) c, i + 1));
            }
        }
        return Optional.empty();
    }
}
