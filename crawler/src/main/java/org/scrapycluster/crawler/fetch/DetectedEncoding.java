package org.scrapycluster.crawler.fetch;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;

/**
 * The character encoding of a response body.
 *
 * @param name    the name Scrapy reports for it — Python's codec name ({@code utf-8}, {@code cp1252},
 *                {@code iso8859-7}, {@code cp1251}) — which the crawl result's {@code encoding} field carries
 * @param charset the same encoding for decoding in Java
 */
public record DetectedEncoding(String name, Charset charset) {

    /** {@code bytes} decoded with this encoding, malformed and unmappable bytes replaced. */
    public String decode(byte[] bytes) {
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder does not throw", e);
        }
    }
}
