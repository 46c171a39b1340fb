package org.scrapycluster.common.url;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * The fingerprint that identifies a request in a crawl's dupefilter, as Scrapy 1.5's
 * {@code request_fingerprint}: the SHA-1, in lower-case hex, of the upper-case method, the canonical URL
 * ({@link UrlCanonicalizer}, fragment removed) in UTF-8, and the body. Java and Python crawlers sharing a
 * dupefilter compute the same value for the same request.
 */
public final class RequestFingerprint {

    private static final byte[] NO_BODY = new byte[0];
    private static final ThreadLocal<MessageDigest> SHA1 = ThreadLocal.withInitial(RequestFingerprint::newSha1);

    private RequestFingerprint() {
    }

    /** The fingerprint of a GET of {@code url} without a body. */
    public static String of(String url) {
        return of("GET", url, NO_BODY);
    }

    /**
     * The fingerprint of a request.
     *
     * @param body the request body; null or empty for none
     * @throws InvalidUrlException when the URL cannot be split
     */
    public static String of(String method, String url, byte[] body) {
        return digest(method, url, body).hex();
    }

    /**
     * The fingerprint of a request as its digest, whose hex text is made only when needed.
     *
     * @param body the request body; null or empty for none
     * @throws InvalidUrlException when the URL cannot be split
     */
    public static Fingerprint digest(String method, String url, byte[] body) {
        MessageDigest sha1 = SHA1.get();
        sha1.reset();
        sha1.update(method.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        sha1.update(UrlCanonicalizer.canonicalize(url).getBytes(StandardCharsets.UTF_8));
        if (body != null) {
            sha1.update(body);
        }
        return new Fingerprint(sha1.digest());
    }

    private static MessageDigest newSha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-1, which every Java platform must provide", e);
        }
    }
}
