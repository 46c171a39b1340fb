package org.scrapycluster.common.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

/**
 * Keys and values as strings in UTF-8, as Lettuce's {@link StringCodec#UTF8}, but encoded with
 * {@link String#getBytes}: one copy for the ASCII text the cluster sends (key names, numbers, queue members),
 * where Lettuce's codec writes each string into a pooled scratch buffer a character at a time and copies it
 * from there, because it cannot know the encoded length in advance. That was two thirds of the Redis event
 * loop's time in a crawl (docs/cpu-per-page.md, "Redis arguments"). Replies are decoded as Lettuce decodes them.
 */
public final class Utf8Codec implements RedisCodec<String, String> {

    public static final Utf8Codec INSTANCE = new Utf8Codec();

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private Utf8Codec() {
    }

    @Override
    public String decodeKey(ByteBuffer bytes) {
        return StringCodec.UTF8.decodeKey(bytes);
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
        return StringCodec.UTF8.decodeValue(bytes);
    }

    @Override
    public ByteBuffer encodeKey(String key) {
        return encode(key);
    }

    @Override
    public ByteBuffer encodeValue(String value) {
        return encode(value);
    }

    private static ByteBuffer encode(String text) {
        return text == null ? EMPTY.duplicate() : ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }
}
