package org.scrapycluster.crawler.fetch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads an HTTP request head off a raw socket, for the test servers that see exactly what the fetcher sends. */
final class RequestHead {

    private RequestHead() {
    }

    /** The request line, then the header lines, up to the empty line; null when the input ends before it. */
    static List<String> read(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        List<String> lines = new ArrayList<>();
        int previous = -1;
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n' && previous == '\r') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                String content = text.substring(0, text.length() - 1);
                if (content.isEmpty()) {
                    return lines;
                }
                lines.add(content);
                line.reset();
            } else {
                line.write(b);
            }
            previous = b;
        }
        return null;
    }
}
