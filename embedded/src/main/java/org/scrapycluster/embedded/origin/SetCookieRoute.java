package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Sets a cookie for every query parameter — {@code /set-cookie?a=1&b=2} answers with two {@code Set-Cookie}
 * headers, {@code a=1; Path=/} and {@code b=2; Path=/} — to check multi-valued response headers and that
 * server cookies are not replayed.
 */
public final class SetCookieRoute implements Route {

    public static final String PATH = "/set-cookie";

    @Override
    public void serve(Exchange exchange) {
        List<String> headers = new ArrayList<>(List.of("Content-Type", "text/plain"));
        for (Map.Entry<String, List<String>> param : exchange.params().entrySet()) {
            for (String value : param.getValue()) {
                headers.add("Set-Cookie");
                headers.add(param.getKey() + "=" + value + "; Path=/");
            }
        }
        exchange.send(200, "cookies set".getBytes(StandardCharsets.US_ASCII),
                headers.toArray(String[]::new));
    }
}
