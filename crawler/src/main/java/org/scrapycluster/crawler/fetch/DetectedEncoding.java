package org.scrapycluster.crawler.fetch;

import java.nio.charset.Charset;

/**
 * The character encoding of a response body.
 *
 * @param name    the name Scrapy reports for it — Python's codec name ({@code utf-8}, {@code cp1252},
 *                {@code iso8859-7}, {@code cp1251}) — which the crawl result's {@code encoding} field carries
 * @param charset the same encoding for decoding in Java
 */
public record DetectedEncoding(String name, Charset charset) {

    /**
     * {@code bytes} decoded with this encoding, malformed and unmappable bytes replaced, as the charset's
     * decoder replaces them. The JDK's {@code String} constructor is that decoder, but for UTF-8 and Latin-1 it
     * decodes straight into the string's own compact bytes, without the decoder's buffer of two-byte
     * characters, which was nearly a quarter of what a crawler node allocated (docs/cpu-per-page.md, "Bodies
     * decoded by the JDK").
     */
    public String decode(byte[] bytes) {
        return new String(bytes, charset);
    }
}
