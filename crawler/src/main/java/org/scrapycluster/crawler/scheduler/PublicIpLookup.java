package org.scrapycluster.crawler.scheduler;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds this node's public IP address for throttle keys by IP (docs/compatibility.md §4.3): a GET of
 * {@code PUBLIC_IP_URL} within a short timeout, the first match of {@code IP_ADDR_REGEX} in the answer
 * (its first group when it has one). On any failure it answers {@value #FALLBACK} and logs one WARN
 * (not one per refresh) until a look-up works again; a change of address is logged at INFO.
 */
public final class PublicIpLookup {

    /** The address used when the look-up fails, as in the original. */
    public static final String FALLBACK = "127.0.0.1";

    private static final Logger LOG = LoggerFactory.getLogger(PublicIpLookup.class);

    private final URI url;
    private final Pattern pattern;
    private final Duration timeout;
    private final HttpClient client;
    private String last;
    private boolean failing;

    /**
     * @param url     where to ask ({@code PUBLIC_IP_URL})
     * @param regex   what an address looks like in the answer ({@code IP_ADDR_REGEX})
     * @param timeout how long to wait for connecting and for the answer
     */
    public PublicIpLookup(String url, String regex, Duration timeout) {
        this.url = URI.create(url);
        this.pattern = Pattern.compile(regex);
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    /** Looks the address up now; {@value #FALLBACK} when that fails. */
    public synchronized String lookUp() {
        String ip = query().orElse(FALLBACK);
        if (last != null && !last.equals(ip)) {
            LOG.info("Changed Public IP: {} -> {}", last, ip);
        }
        last = ip;
        return ip;
    }

    private Optional<String> query() {
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(url).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher matcher = pattern.matcher(response.body());
            if (response.statusCode() != 200 || !matcher.find()) {
                return failed("no address in the answer (status " + response.statusCode() + ")");
            }
            failing = false;
            return Optional.of(matcher.groupCount() > 0 ? matcher.group(1) : matcher.group());
        } catch (IOException | IllegalArgumentException e) {
            return failed(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("interrupted");
        }
    }

    private Optional<String> failed(String reason) {
        if (!failing) {
            LOG.atWarn().addKeyValue("url", url).addKeyValue("reason", reason)
                    .log("Could not reach out to get public ip; using " + FALLBACK + " (set PUBLIC_IP to skip the look-up)");
        }
        failing = true;
        return Optional.empty();
    }
}
