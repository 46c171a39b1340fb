package org.scrapycluster.kafkamonitor.intake;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Records no monitor should accept (docs/architecture.md, guarantee 6), made from a seed so that a failure can be
 * replayed: random bytes, text that is not UTF-8, truncated JSON, wrong types, huge strings, deep
 * nesting, regexes RE2 cannot run, URLs that are not http(s), values that are not objects, unknown
 * and missing fields, ids with colons, and records without a value.
 */
final class HostileRecords {

    /** Huge records are few: each costs 10 MB through Kafka. */
    static final int HUGE = 3;

    private static final String CRAWL = "{\"url\":\"http://www.hostile-example.com/%d\",\"appid\":\"testapp\",\"crawlid\":\"c%d\"%s}";
    private static final List<String> WRONG_TYPES = List.of(
            ",\"priority\":\"high\"", ",\"maxdepth\":true", ",\"maxdepth\":1.5", ",\"expires\":\"tomorrow\"",
            ",\"allowed_domains\":\"example.com\"", ",\"attrs\":[1,2]", ",\"cookie\":42", ",\"priority\":null",
            ",\"allow_regex\":[1]", ",\"deny_extensions\":[\"a\",\"a\"]", ",\"maxdepth\":4", ",\"priority\":101");
    private static final List<String> BAD_REGEXES = List.of("(a)\\\\1", "(?=x)y", "(?<=a)b", "(?!z)", "a{2,1}", "(unclosed");
    private static final List<String> BAD_URLS = List.of("javascript:alert(1)", "file:///etc/passwd", "ftp://example.com/",
            "mailto:a@example.com", "data:text/html,x", "http://", "://nohost", "http://exa mple.com/");
    private static final List<String> NOT_OBJECTS = List.of("42", "\"a string\"", "null", "[]", "true", "[{\"url\":\"http://example.com/\"}]");

    private final Random random;

    HostileRecords(long seed) {
        this.random = new Random(seed);
    }

    /** {@code count} hostile records, {@link #HUGE} of them 10 MB large. */
    List<byte[]> make(int count) {
        List<byte[]> records = new ArrayList<>(count);
        for (int i = 0; i < HUGE; i++) {
            records.add(hugeString(i));
        }
        for (int i = records.size(); i < count; i++) {
            records.add(record(i));
        }
        return records;
    }

    private byte[] record(int i) {
        return switch (i % 12) {
            case 0 -> randomBytes();
            case 1 -> notUtf8(i);
            case 2 -> truncated(i);
            case 3 -> text(String.format(CRAWL, i, i, WRONG_TYPES.get(i / 12 % WRONG_TYPES.size())));
            case 4 -> deeplyNested(i);
            case 5 -> text(String.format(CRAWL, i, i, ",\"allow_regex\":[\"" + BAD_REGEXES.get(i / 12 % BAD_REGEXES.size()) + "\"]"));
            case 6 -> text("{\"url\":\"" + BAD_URLS.get(i / 12 % BAD_URLS.size()) + "\",\"appid\":\"testapp\",\"crawlid\":\"c" + i + "\"}");
            case 7 -> text(NOT_OBJECTS.get(i / 12 % NOT_OBJECTS.size()));
            case 8 -> text(String.format(CRAWL, i, i, ",\"client_id\":\"x\""));
            case 9 -> text("{\"appid\":\"testapp\",\"crawlid\":\"c" + i + "\"}");
            case 10 -> text("{\"url\":\"http://example.com/\",\"appid\":\"test:app\",\"crawlid\":\"c" + i + "\"}");
            default -> i % 24 == 11 ? null : text("{\"uuid\":\"u" + i + "\",\"appid\":\"testapp\",\"action\":\"expire\",\"spiderid\":\"link\"}");
        };
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[random.nextInt(200)];
        random.nextBytes(bytes);
        return bytes;
    }

    private byte[] notUtf8(int i) {
        byte[] latin1 = String.format(CRAWL, i, i, ",\"attrs\":{\"name\":\"Müller café\"}").getBytes(StandardCharsets.ISO_8859_1);
        if (i % 24 == 1) {
            latin1[latin1.length / 2] = (byte) (0x80 + random.nextInt(0x40));
        }
        return latin1;
    }

    private byte[] truncated(int i) {
        byte[] whole = text(String.format(CRAWL, i, i, ",\"priority\":5"));
        byte[] cut = new byte[random.nextInt(whole.length - 1)];
        System.arraycopy(whole, 0, cut, 0, cut.length);
        return cut;
    }

    private static byte[] deeplyNested(int i) {
        StringBuilder json = new StringBuilder(String.format(CRAWL, i, i, ",\"attrs\":{\"deep\":"));
        json.setLength(json.length() - 1);
        json.append("[".repeat(10_000)).append("]".repeat(10_000)).append("}}");
        return text(json.toString());
    }

    private static byte[] hugeString(int i) {
        return text(String.format(CRAWL, i, i, ",\"attrs\":{\"blob\":\"" + "x".repeat(10_000_000) + "\"}"));
    }

    private static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
