package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DetectedEncodingTest {

    /** Every Python codec the crawler decodes with, from the table it reads them from. */
    static List<String> pythonCodecs() throws IOException {
        try (InputStream in = PythonCodecs.class.getResourceAsStream("python-codecs.tsv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("#") && !line.isBlank()).map(line -> line.split("\t")[0]).toList();
        }
    }

    /** Text, malformed UTF-8 of every kind, lone high bytes, and random bytes. */
    private static List<byte[]> bodies() {
        List<byte[]> bodies = new ArrayList<>();
        bodies.add("<html><a href=\"/p1.html\">one</a>\n</html>".getBytes(StandardCharsets.US_ASCII));
        bodies.add("caf\u00e9 \u65e5\u672c \uD83D\uDE00".getBytes(StandardCharsets.UTF_8));
        for (String hex : List.of("c328", "e282", "e228a1", "f09f98", "eda080", "c080", "f4908080", "80", "ff", "fe", "feff0041",
                "fffe4100", "efbbbf41", "1b2428", "0000feff00000041")) {
            bodies.add(HexFormat.of().parseHex(hex));
        }
        Random random = new Random(2024);
        for (int i = 0; i < 8; i++) {
            byte[] noise = new byte[512 + i];
            random.nextBytes(noise);
            bodies.add(noise);
        }
        return bodies;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pythonCodecs")
    void decodesAsTheCharsetsReplacingDecoderDoes(String python) throws CharacterCodingException {
        DetectedEncoding encoding = PythonCodecs.byPythonName(python);
        for (byte[] body : bodies()) {
            String expected = encoding.charset().newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(body)).toString();
            assertEquals(expected, encoding.decode(body),
                    python + " " + HexFormat.of().formatHex(body, 0, Math.min(16, body.length)));
        }
    }
}
