package org.scrapycluster.bench.micro;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.fetch.EncodingDetector;

/**
 * A fetched 15 KB UTF-8 page decoded into the text its links are read from: as the crawler decodes it
 * ({@link DetectedEncoding#decode}, the JDK's {@code String} constructor), and with the charset's replacing
 * decoder, which gives the same text through a buffer of two-byte characters.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BodyDecodingBenchmarks {

    private final byte[] body = SamplePages.html().getFirst().getBytes(StandardCharsets.UTF_8);
    private final DetectedEncoding encoding = EncodingDetector.detect("text/html; charset=utf-8", body);

    @Benchmark
    public String crawler() {
        return encoding.decode(body);
    }

    @Benchmark
    public String charsetDecoder() throws CharacterCodingException {
        return encoding.charset().newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(body)).toString();
    }
}
