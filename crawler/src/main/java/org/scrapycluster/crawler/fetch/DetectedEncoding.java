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
}
