package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class Utf8CodecTest {

    private static final List<String> TEXTS = List.of("", "link:127.0.0.17:queue", "1732460000.250001",
            "{\"url\":\"http://caf\u00e9.example/men\u00fc\",\"meta\":{\"note\":\"\u65e5\u672c\"}}",
            "a \uD83D\uDE00 face", "a lone \uD800 surrogate", "nul \u0000 inside");

    private static byte[] wire(RedisCodec<String, String> codec, String text) {
        ByteBuf out = Unpooled.buffer();
        new CommandArgs<>(codec).addKey(text).addValue(text).encode(out);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    @Test
    void writesTheBytesLettucesUtf8CodecWrites() {
        for (String text : TEXTS) {
            assertEquals(new String(wire(StringCodec.UTF8, text), StandardCharsets.ISO_8859_1),
                    new String(wire(Utf8Codec.INSTANCE, text), StandardCharsets.ISO_8859_1), text);
        }
    }

    @Test
    void readsBackWhatItWrote() {
        for (String text : TEXTS.subList(0, 5)) {
            assertEquals(text, Utf8Codec.INSTANCE.decodeValue(Utf8Codec.INSTANCE.encodeValue(text)));
            assertEquals(text, Utf8Codec.INSTANCE.decodeKey(Utf8Codec.INSTANCE.encodeKey(text)));
        }
    }

    @Test
    void readsFromDirectBuffersAsRepliesArrive() {
        byte[] utf8 = TEXTS.get(3).getBytes(StandardCharsets.UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(utf8.length).put(utf8).flip();
        assertEquals(TEXTS.get(3), Utf8Codec.INSTANCE.decodeValue(direct));
    }

    @Test
    void writesNullAsTheEmptyString() {
        assertEquals(0, Utf8Codec.INSTANCE.encodeValue(null).remaining());
        assertEquals(new String(wire(StringCodec.UTF8, null), StandardCharsets.ISO_8859_1),
                new String(wire(Utf8Codec.INSTANCE, null), StandardCharsets.ISO_8859_1));
    }
}
