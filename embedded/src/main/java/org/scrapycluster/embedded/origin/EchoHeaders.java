package org.scrapycluster.embedded.origin;

import java.util.List;
import java.util.Map;

/**
 * Returns the request as JSON — {@code {"method":…,"uri":…,"headers":{name:[values]}}}, header names as
 * sent — at {@code /echo}, to check User-Agent, Cookie and the other headers a client sends.
 */
public final class EchoHeaders implements Route {

    public static final String PATH = "/echo";

    @Override
    public void serve(Exchange exchange) {
        RecordedRequest request = exchange.request();
        StringBuilder json = new StringBuilder("{\"method\":");
        quote(request.method(), json);
        json.append(",\"uri\":");
        quote(request.uri(), json);
        json.append(",\"headers\":{");
        boolean first = true;
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            if (!first) {
                json.append(',');
            }
            first = false;
            quote(header.getKey(), json);
            json.append(":[");
            for (int i = 0; i < header.getValue().size(); i++) {
                if (i > 0) {
                    json.append(',');
                }
                quote(header.getValue().get(i), json);
            }
            json.append(']');
        }
        json.append("}}");
        exchange.sendText(200, "application/json", json.toString());
    }

    private static void quote(String value, StringBuilder json) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
