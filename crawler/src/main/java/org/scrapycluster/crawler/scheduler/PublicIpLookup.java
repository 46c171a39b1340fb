package org.scrapycluster.crawler.scheduler;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds this node's public IP address for throttle keys by IP (docs/compatibility.md §4.3): a GET of
 * {@code PUBLIC_IP_URL} within a short timeout, the first match of {@code IP_ADDR_REGEX} in the answer
 * (its first group when it has one). On any failure it answers the address it last found, or {@value #FALLBACK} when
 * it never found one, and logs one WARN (not one per refresh) until a look-up works again; a change of address is
 * logged at INFO. The original answered {@value #FALLBACK} at every failure, and its queues built from then on
 * throttled under a key of their own; here every queue's key follows the address, so a look-up failing for a moment
 * would move every domain to a key with an empty window, and let each domain have its limit twice over.
 */
public final class PublicIpLookup {

    /** The address used when the look-up fails, as in the original. */
    public static final String FALLBACK = "127.0.0.1";

    private static final Logger LOG = LoggerFactory.getLogger(PublicIpLookup.class);
    /** The most of an answer kept: an echo service's is a line. */
    private static final int MAX_ANSWER_BYTES = 64 * 1024;

    private final URI url;
    private final Pattern pattern;
    private final Duration timeout;
    /** Made at the first look-up: a client starts a thread of its own. */
    private HttpClient client;
    private String last;
    private boolean failing;

    private PublicIpLookup(URI url, Pattern pattern, Duration timeout) {
        this.url = url;
        this.pattern = pattern;
        this.timeout = timeout;
    }

    /**
     * The look-up {@code PUBLIC_IP_URL} (where to ask), {@code IP_ADDR_REGEX} (what an address looks like in the answer)
     * and {@code PUBLIC_IP_TIMEOUT} (how long to wait for connecting and for the answer) describe. It starts nothing
     * until its first look-up.
     *
     * @throws SettingsException naming the setting, when the URL is not an http or https URL, the expression is not
     *                           one, or the timeout is not above 0
     */
    public static PublicIpLookup from(Settings settings) {
        String url = settings.getString("PUBLIC_IP_URL");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw settings.invalid("PUBLIC_IP_URL", "is '" + url + "', which is not a URL: " + e.getReason() + " at index " + e.getIndex());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw settings.invalid("PUBLIC_IP_URL", "is '" + url + "'; give an http or https URL, or set PUBLIC_IP");
        }
        String regex = settings.getString("IP_ADDR_REGEX");
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw settings.invalid("IP_ADDR_REGEX", "is '" + regex + "', which is not a regular expression: " + e.getDescription()
                    + " near index " + e.getIndex());
        }
        Duration timeout = settings.getSeconds("PUBLIC_IP_TIMEOUT");
        if (timeout.isNegative() || timeout.isZero()) {
            throw settings.invalid("PUBLIC_IP_TIMEOUT", "must be more than 0");
        }
        return new PublicIpLookup(uri, pattern, timeout);
    }

    /** Looks the address up now; when that fails, the address last found, or {@value #FALLBACK} before any was. */
    public synchronized String lookUp() {
        String ip = query().orElse(fallback());
        if (last != null && !last.equals(ip)) {
            LOG.info("Changed Public IP: {} -> {}", last, ip);
        }
        last = ip;
        return ip;
    }

    private Optional<String> query() {
        if (client == null) {
            client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
        }
        // The request's timeout bounds the wait for the headers only: the whole answer is waited for within it, and no more
        // than MAX_ANSWER_BYTES of it kept, so that a service that trickles or floods cannot hold or fill a node's start.
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        CompletableFuture<HttpResponse<Void>> answered;
        try {
            answered = client.sendAsync(HttpRequest.newBuilder(url).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArrayConsumer(chunk -> chunk.ifPresent(bytes -> keep(kept, bytes))));
        } catch (IllegalArgumentException e) {
            return failed(e.toString());
        }
        try {
            HttpResponse<Void> response = answered.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            Matcher matcher;
            synchronized (kept) {
                matcher = pattern.matcher(kept.toString(StandardCharsets.UTF_8));
            }
            if (response.statusCode() != 200 || !matcher.find()) {
                return failed("no address in the answer (status " + response.statusCode() + ")");
            }
            failing = false;
            return Optional.of(matcher.groupCount() > 0 ? matcher.group(1) : matcher.group());
        } catch (ExecutionException e) {
            return failed(e.getCause().toString());
        } catch (TimeoutException e) {
            answered.cancel(true);
            return failed("no whole answer within " + timeout.toMillis() / 1000.0 + " s");
        } catch (InterruptedException e) {
            answered.cancel(true);
            Thread.currentThread().interrupt();
            return failed("interrupted");
        }
    }

    /** Keeps {@code bytes} of the answer, up to {@value #MAX_ANSWER_BYTES} in all. */
    private static void keep(ByteArrayOutputStream kept, byte[] bytes) {
        synchronized (kept) {
            kept.write(bytes, 0, Math.min(bytes.length, Math.max(0, MAX_ANSWER_BYTES - kept.size())));
        }
    }

    /** The address answered when a look-up fails: the one last found, or {@value #FALLBACK} before any was. */
    private String fallback() {
        return last == null ? FALLBACK : last;
    }

    private Optional<String> failed(String reason) {
        if (!failing) {
            LOG.atWarn().addKeyValue("url", url).addKeyValue("reason", reason)
                    .log("Could not reach out to get public ip; using " + fallback() + " (set PUBLIC_IP to skip the look-up)");
        }
        failing = true;
        return Optional.empty();
    }
}
