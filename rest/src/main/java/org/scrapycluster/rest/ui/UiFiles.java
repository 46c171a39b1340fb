package org.scrapycluster.rest.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;
import org.scrapycluster.rest.http.Refusal;
import org.scrapycluster.rest.http.RefusedRequestException;

/**
 * Serves the web UI's files under {@value #PREFIX}: a fixed set, read once from the class path
 * (no path from a request ever reaches the file system or the class loader). {@code /ui/} is the
 * page itself; any other name is refused as an unknown endpoint.
 */
public final class UiFiles implements Endpoint {

    /** The path prefix the UI is served under. */
    public static final String PREFIX = "/ui/";

    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8");

    private final Map<String, HttpAnswer> answers = new LinkedHashMap<>();

    public UiFiles() {
        FILES.forEach((name, type) -> answers.put(name, new HttpAnswer(200, type, read(name))
                .withHeader("Cache-Control", "no-cache")
                .withHeader("X-Content-Type-Options", "nosniff")));
    }

    @Override
    public HttpAnswer answer(HttpCall call) throws RefusedRequestException {
        String name = call.path().substring(PREFIX.length());
        HttpAnswer file = answers.get(name.isEmpty() ? "index.html" : name);
        if (file == null) {
            throw new RefusedRequestException(Refusal.UNKNOWN_PATH, null);
        }
        return file;
    }

    private static byte[] read(String name) {
        try (InputStream in = UiFiles.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the web UI file " + name + " is missing from the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the web UI file " + name, e);
        }
    }
}
