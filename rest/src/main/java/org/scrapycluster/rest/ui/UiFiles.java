package org.scrapycluster.rest.ui;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;
import org.scrapycluster.rest.http.Refusal;
import org.scrapycluster.rest.http.RefusedRequestException;

/**
 * Serves the web UI's files under {@value #PREFIX}: a fixed set, read once from the class path
 * (no path from a request ever reaches the file system or the class loader). {@code /ui/} is the
 * page itself, with the gateway's settings for the page's own timing filled in ({@code <meta>} elements the script
 * reads); {@code /ui/vendor/} holds the charting library uPlot, from its WebJar, so the page
 * loads nothing from elsewhere; any other name is refused as an unknown endpoint.
 */
public final class UiFiles implements Endpoint {

    /** The path prefix the UI is served under. */
    public static final String PREFIX = "/ui/";

    private static final String PAGE = "index.html";
    private static final String PAGE_TYPE = "text/html; charset=utf-8";
    /** The settings the page is given, each in a {@code <meta>} of index.html whose content is {@code ${NAME}} (docs/rest.md). */
    private static final List<String> PAGE_SETTINGS = List.of("UI_HEALTH_REFRESH_SECONDS", "UI_READ_TIMEOUT_SECONDS");

    private static final Map<String, String> FILES = Map.of(
            "app.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8");

    private static final String UPLOT = "/META-INF/resources/webjars/uplot/";
    private static final Map<String, String> VENDOR_FILES = Map.of(
            "vendor/uPlot.iife.min.js", "dist/uPlot.iife.min.js",
            "vendor/uPlot.min.css", "dist/uPlot.min.css",
            "vendor/uPlot.LICENSE", "LICENSE");

    /**
     * What the page may load and do (docs/security.md): its own scripts, style sheets and calls only, no inline script
     * or style, no image but the empty {@code data:} icon, no {@code <base>}, no form sent elsewhere; and no other
     * site may frame it and steer clicks onto its actions.
     */
    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src 'self';"
            + " base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final Map<String, HttpAnswer> answers = new LinkedHashMap<>();

    /** @param settings the gateway's settings, of which the page is given those of {@link #PAGE_SETTINGS} */
    public UiFiles(Settings settings) {
        answers.put(PAGE, file(PAGE_TYPE, page(settings)));
        FILES.forEach((name, type) -> answers.put(name, file(type, read(name))));
        String uplot = UPLOT + webJarVersion() + "/";
        VENDOR_FILES.forEach((name, path) -> answers.put(name, file(typeOf(name), read(uplot + path))));
    }

    /**
     * The wait of the web UI's page that the setting {@code name} gives: from 0.1 s to a day, for a browser's timer fires
     * at once for a wait beyond about 24.8 days, which would read the gateway in a loop from every tab.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting when it is outside those bounds
     */
    public static Duration pageWait(Settings settings, String name) {
        Duration wait = settings.getSeconds(name);
        if (wait.toMillis() < 100 || wait.compareTo(Duration.ofDays(1)) > 0) {
            throw settings.invalid(name, "must be at least 0.1 and at most 86400 (a day)");
        }
        return wait;
    }

    /** index.html with the value of each of {@link #PAGE_SETTINGS}, a {@linkplain #pageWait page's wait}, in place of its name. */
    private static byte[] page(Settings settings) {
        String page = new String(read(PAGE), StandardCharsets.UTF_8);
        for (String name : PAGE_SETTINGS) {
            pageWait(settings, name);
            double seconds = settings.getDouble(name);
            String placeholder = "${" + name + "}";
            if (!page.contains(placeholder)) {
                throw new IllegalStateException("the web UI's " + PAGE + " has no " + placeholder + " to fill in");
            }
            page = page.replace(placeholder, Double.toString(seconds));
        }
        return page.getBytes(StandardCharsets.UTF_8);
    }

    private static HttpAnswer file(String type, byte[] body) {
        return new HttpAnswer(200, type, body)
                .withHeader("Cache-Control", "no-cache")
                .withHeader("Content-Security-Policy", POLICY)
                .withHeader("X-Frame-Options", "DENY");
    }

    private static String typeOf(String name) {
        if (name.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        return name.endsWith(".css") ? "text/css; charset=utf-8" : "text/plain; charset=utf-8";
    }

    /** The version of the uPlot WebJar on the class path, from its Maven properties. */
    private static String webJarVersion() {
        Properties properties = new Properties();
        try (InputStream in = new ByteArrayInputStream(read("/META-INF/maven/org.webjars.npm/uplot/pom.properties"))) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uPlot WebJar's version", e);
        }
        return properties.getProperty("version");
    }

    @Override
    public HttpAnswer answer(HttpCall call) throws RefusedRequestException {
        String name = call.path().substring(PREFIX.length());
        HttpAnswer file = answers.get(name.isEmpty() ? PAGE : name);
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
