package org.scrapycluster.crawler.fetch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.origin.CompressedPages;

import ch.qos.logback.classic.Level;

/**
 * The fetcher against servers on loopback addresses that write exact bytes: answers that break the rules of
 * HTTP/1.1 must not spoil the kept-alive connection they came on for the next request, and a server that
 * answers nothing must not hold a connection past the end of its fetch.
 */
class MisbehavingServerTest {

    private static final String HI = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";

    private static HttpFetcher fetcher;

    @BeforeAll
    static void open() {
        fetcher = new HttpFetcher(FetcherConfig.builder().readTimeout(Duration.ofSeconds(5))
                .totalTimeout(Duration.ofSeconds(10)).build());
    }

    @AfterAll
    static void close() {
        fetcher.close();
    }

    private static FetchResult fetch(FetchRequest request) {
        return fetcher.fetch(request).orTimeout(60, TimeUnit.SECONDS).join();
    }

    /** Answers the first request of the first connection with {@code first}, every other request with "hi". */
    private static ScriptedServer.Script firstThenHi(String first) {
        return exchange -> {
            exchange.readHead();
            exchange.write(exchange.connection == 0 ? first : HI);
            while (exchange.readHead() != null) {
                exchange.write(HI);
            }
        };
    }

    @Test
    void bytesPastTheEndOfAResponseAreNotReadAsTheNextOne() throws Exception {
        String longerThanAnnounced = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokextra";
        String headWithABody = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
        for (String method : List.of("GET", "HEAD")) {
            try (ScriptedServer server = new ScriptedServer("127.0.0.5",
                    firstThenHi(method.equals("GET") ? longerThanAnnounced : headWithABody))) {
                FetchResult first = fetch(FetchRequest.get(server.url("/first")).withMethod(method, new byte[0]));
                assertTrue(first.ok(), method + ": " + first);
                FetchResult next = fetch(FetchRequest.get(server.url("/next")));
                assertTrue(next.ok(), method + ": " + next);
                assertEquals("hi", next.text(), method);
                assertFalse(next.timings().reusedConnection(), method);
            }
        }
    }

    @Test
    void aHeadTrickledInAByteAtATimeIsSlowNotSilent() throws Exception {
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Slow: " + "x".repeat(60) + "\r\n\r\nhi")
                .getBytes(StandardCharsets.US_ASCII);
        try (HttpFetcher impatient = new HttpFetcher(FetcherConfig.builder().readTimeout(Duration.ofMillis(300))
                .totalTimeout(Duration.ofSeconds(1)).build());
                ScriptedServer server = new ScriptedServer("127.0.0.5", exchange -> {
                    exchange.readHead();
                    for (byte each : head) {
                        exchange.write(new byte[] {each});
                        LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                    }
                })) {
            FetchResult result = impatient.fetch(FetchRequest.get(server.url("/slow-head"))).orTimeout(60, TimeUnit.SECONDS).join();
            assertEquals(FetchError.TOTAL_TIMEOUT, result.error(), "a byte every 50 ms is no silence of 300 ms: " + result);
        }
    }

    @Test
    void aBodyPastTheWarnSizeIsSaidOnceAsAnnouncedAndOnceAsReadAsScrapySaysIt() throws Exception {
        String body = "x".repeat(3000);
        try (HttpFetcher warning = new HttpFetcher(FetcherConfig.builder().warnBodyBytes(1000).build());
                ScriptedServer server = new ScriptedServer("127.0.0.5", exchange -> {
                    exchange.readHead();
                    exchange.write(exchange.connection == 0 ? "HTTP/1.1 200 OK\r\nContent-Length: 3000\r\n\r\n" + body
                            : "HTTP/1.0 200 OK\r\n\r\n" + body);
                    exchange.socket.close();
                });
                CapturedLog log = CapturedLog.start(FetchHandler.class, Level.WARN)) {
            assertTrue(warning.fetch(FetchRequest.get(server.url("/announced"))).orTimeout(60, TimeUnit.SECONDS).join().ok());
            String received = "WARN Received \\(\\d{4}\\) bytes larger than download warn size \\(1000\\)"; // as far as read then
            List<String> lines = log.lines();
            assertEquals(2, lines.size(), lines.toString());
            assertEquals("WARN Expected response size (3000) larger than download warn size (1000)", lines.get(0));
            assertTrue(lines.get(1).matches(received), lines.get(1));
            assertTrue(warning.fetch(FetchRequest.get(server.url("/unannounced"))).orTimeout(60, TimeUnit.SECONDS).join().ok());
            lines = log.lines();
            assertEquals(3, lines.size(), lines.toString());
            assertTrue(lines.get(2).matches(received), lines.get(2));
        }
    }

    @Test
    void informationalResponsesBeforeTheAnswerToAHeadAreSkipped() throws Exception {
        String hintsThenHead = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(hintsThenHead))) {
            FetchResult head = fetch(FetchRequest.get(server.url("/")).withMethod("HEAD", new byte[0]));
            assertTrue(head.ok(), head.toString());
            assertEquals("1000", head.headers().first("Content-Length"));
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertEquals("hi", next.text());
            assertTrue(next.timings().reusedConnection(), "the HEAD's connection is kept: it had no body");
        }
    }

    @Test
    void bytesArrivingOnAnIdleConnectionCloseIt() throws Exception {
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", exchange -> {
            exchange.readHead();
            exchange.write(HI);
            exchange.write("unasked");
            while (exchange.readHead() != null) {
                exchange.write(HI);
            }
        })) {
            assertTrue(fetch(FetchRequest.get(server.url("/first"))).ok());
            await().atMost(Duration.ofSeconds(10)).until(() -> server.openConnections() == 0);
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertTrue(next.ok(), next.toString());
            assertEquals("hi", new String(next.body(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void aConnectionAnsweredBeforeTheRequestBodyWasSentIsNotKept() throws Exception {
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", exchange -> {
            if (exchange.connection == 0) {
                exchange.readHead();
                exchange.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n");
            }
            for (List<String> head = exchange.readHead(); head != null; head = exchange.readHead()) {
                exchange.write(head.getFirst().startsWith("GET ") ? HI : "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
            }
        })) {
            FetchResult upload = fetch(FetchRequest.get(server.url("/upload")).withMethod("POST", new byte[16 << 20]));
            assertEquals(413, upload.status(), upload.toString());
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertEquals(200, next.status(), "the rest of the upload is not taken for the next request: " + next);
            assertFalse(next.timings().reusedConnection());
        }
    }

    @Test
    void linesEndedByABareLineFeedAreReadAsTwistedReadsThem() throws Exception {
        for (String response : List.of("HTTP/1.1 200 OK\nContent-Length: 2\nX-Served-By: cgi\n\nhi",
                "HTTP/1.0 200 OK\r\nContent-Length: 2\nX-Served-By: cgi\r\n\nhi")) {
            try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(response))) {
                FetchResult result = fetch(FetchRequest.get(server.url("/")));
                assertTrue(result.ok(), result.toString());
                assertEquals("hi", result.text());
                assertEquals("cgi", result.headers().first("X-Served-By"));
            }
        }
    }

    @Test
    void aReasonPhraseInUtf8IsReadAsUtf8() throws Exception {
        String utf8 = new String("HTTP/1.1 200 Très bien\r\nContent-Length: 2\r\n\r\nhi".getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1);
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(utf8))) {
            assertEquals("Très bien", fetch(FetchRequest.get(server.url("/"))).reason());
        }
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi("HTTP/1.1 200 Très bien\r\nContent-Length: 2\r\n\r\nhi"))) {
            assertEquals("Très bien", fetch(FetchRequest.get(server.url("/"))).reason(), "bytes that are not UTF-8 read as ISO-8859-1");
        }
    }

    @Test
    void aRedirectWhoseBodyIsNotTheGzipItsHeaderSaysIsStillARedirect() throws Exception {
        String mislabelled = "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Encoding: gzip\r\nContent-Length: 16\r\n\r\nthis is not gzip";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(mislabelled))) {
            FetchResult redirect = fetch(FetchRequest.get(server.url("/")));
            assertTrue(redirect.ok(), "Scrapy's redirect middleware sees the response before it is decompressed: " + redirect);
            assertEquals(302, redirect.status());
            assertEquals(server.url("/next"), redirect.location());
            assertEquals(0, redirect.body().length);
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertEquals("hi", next.text());
            assertTrue(next.timings().reusedConnection(), "the redirect was read to its end");
        }
        String notARedirect = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 16\r\n\r\nthis is not gzip";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(notARedirect))) {
            assertEquals(FetchError.PROTOCOL, fetch(FetchRequest.get(server.url("/"))).error(), "a page must decode");
        }
    }

    /**
     * Scrapy's compression middleware pops the last Content-Encoding value whether it knows it or not, leaves a
     * body it cannot decode as sent, and drops the header once no value is left.
     */
    @Test
    void anEncodingNotDecodedLeavesTheBodyAsSentAndIsDroppedFromTheHeadersAsScrapyDoes() throws Exception {
        Map<String, List<String>> remaining = Map.of("zstd", List.of(), "compress", List.of(),
                "gzip\r\nContent-Encoding: compress", List.of("gzip"));
        for (Map.Entry<String, List<String>> sent : remaining.entrySet()) {
            String page = "HTTP/1.1 200 OK\r\nContent-Encoding: " + sent.getKey() + "\r\nContent-Length: 2\r\n\r\nok";
            try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(page))) {
                FetchResult result = fetch(FetchRequest.get(server.url("/")));
                assertTrue(result.ok(), sent.getKey() + ": " + result);
                assertEquals("ok", result.text(), sent.getKey());
                assertEquals(sent.getValue(), result.headers().all("Content-Encoding"), sent.getKey());
            }
        }
    }

    @Test
    void aBodyTooShortForTheGzipItIsLabelledIsNoPageButARedirectStillIs() throws Exception {
        String page = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\nok";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(page))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertEquals(FetchError.PROTOCOL, result.error(), "Scrapy's gunzip raises: " + result);
        }
        String redirect = "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Encoding: deflate\r\nContent-Length: 1\r\n\r\n.";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(redirect))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertTrue(result.ok(), result.toString());
            assertEquals(server.url("/next"), result.location());
        }
    }

    /** Answers with a chunked gzip body: {@code first}, then {@code filler} over and over until the client goes. */
    private static ScriptedServer.Script chunkedGzip(byte[] first, byte[] filler) {
        return exchange -> {
            exchange.readHead();
            exchange.write("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n");
            exchange.write(chunk(first));
            byte[] chunk = chunk(filler);
            while (true) {
                exchange.write(chunk);
            }
        };
    }

    private static byte[] chunk(byte[] data) {
        byte[] head = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] chunk = Arrays.copyOf(head, head.length + data.length + 2);
        System.arraycopy(data, 0, chunk, head.length, data.length);
        chunk[chunk.length - 2] = '\r';
        chunk[chunk.length - 1] = '\n';
        return chunk;
    }

    @Test
    void whatFollowsTheGzipMembersOfAPageEndsItsBodyAndItsConnection() throws Exception {
        byte[] page = "<html>a small page</html>".getBytes(StandardCharsets.US_ASCII);
        byte[] empty = CompressedPages.gzip(new byte[0]);
        byte[] empties = new byte[empty.length * 400];
        for (int at = 0; at < empties.length; at += empty.length) {
            System.arraycopy(empty, 0, empties, at, empty.length);
        }
        Map<String, byte[]> fillers = Map.of("zero bytes", new byte[8192],
                "garbage", "garbage ".repeat(1024).getBytes(StandardCharsets.US_ASCII), "empty members", empties);
        try (HttpFetcher small = new HttpFetcher(FetcherConfig.builder().maxBodyBytes(64 * 1024).build())) {
            for (Map.Entry<String, byte[]> filler : fillers.entrySet()) {
                try (ScriptedServer server = new ScriptedServer("127.0.0.5", chunkedGzip(CompressedPages.gzip(page), filler.getValue()))) {
                    FetchResult result = small.fetch(FetchRequest.get(server.url("/"))).orTimeout(60, TimeUnit.SECONDS).join();
                    assertTrue(result.ok(), filler.getKey() + ": " + result);
                    assertArrayEquals(page, result.body(), filler.getKey());
                    await().atMost(Duration.ofSeconds(10)).until(() -> server.openConnections() == 0);
                }
            }
        }
    }

    @Test
    void aCompressedBodySentPastTheLimitIsTooLargeWhateverItDecodesTo() throws Exception {
        byte[] page = "<html>a small page</html>".getBytes(StandardCharsets.US_ASCII);
        // a member that never ends: its header, then empty stored blocks, which yield nothing
        byte[] endless = new byte[5 * 2000];
        for (int at = 0; at < endless.length; at += 5) {
            endless[at + 3] = (byte) 0xFF;
            endless[at + 4] = (byte) 0xFF;
        }
        byte[] first = concat(CompressedPages.gzip(page), Arrays.copyOf(CompressedPages.gzip(new byte[0]), 10));
        try (HttpFetcher small = new HttpFetcher(FetcherConfig.builder().maxBodyBytes(64 * 1024).build());
                ScriptedServer server = new ScriptedServer("127.0.0.5", chunkedGzip(first, endless))) {
            FetchResult result = small.fetch(FetchRequest.get(server.url("/"))).orTimeout(60, TimeUnit.SECONDS).join();
            assertEquals(FetchError.TOO_LARGE, result.error(), result.toString());
            await().atMost(Duration.ofSeconds(10)).until(() -> server.openConnections() == 0);

            FetchResult cut = small.fetch(FetchRequest.get(server.url("/robots.txt")).withBodyCut(1000))
                    .orTimeout(60, TimeUnit.SECONDS).join();
            assertTrue(cut.ok(), "a request that cuts the body is cut where it says, as robots.txt is: " + cut);
            assertArrayEquals(page, cut.body());
        }
    }

    @Test
    void headersNettyWouldRefuseAreReadAsTwistedAndBrowsersReadThem() throws Exception {
        String odd = "HTTP/1.1 200 OK\r\nX-Debug/Info: 1\r\nX-A: a\u0001b\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "2\r\nhi\r\n0\r\nX-Trailer/Odd: t\u0001\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(odd))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertTrue(result.ok(), result.toString());
            assertEquals("hi", result.text());
            assertEquals("1", result.headers().first("X-Debug/Info"));
            assertEquals("a\u0001b", result.headers().first("X-A"));
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertEquals("hi", next.text());
            assertTrue(next.timings().reusedConnection(), "the response was read to its end");
        }
    }

    /** A header line without a name (`: x`, a lone colon) is passed over; the page is read. */
    @Test
    void aHeaderWithoutANameIsPassedOver() throws Exception {
        String nameless = "HTTP/1.1 200 OK\r\n: x\r\nX-A: a\r\n:\r\nContent-Length: 2\r\n\r\nhi";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(nameless))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertTrue(result.ok(), result.toString());
            assertEquals("hi", result.text());
            assertEquals("a", result.headers().first("X-A"));
            assertEquals("hi", fetch(FetchRequest.get(server.url("/next"))).text());
        }
    }

    /** One length sent twice, or as a list of one value, is read as browsers and Twisted read it; two lengths are not. */
    @Test
    void aContentLengthRepeatedWithTheSameValueIsReadAsOne() throws Exception {
        for (String lengths : List.of("Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5, 5")) {
            String response = "HTTP/1.1 200 OK\r\n" + lengths + "\r\n\r\nhello";
            try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(response))) {
                FetchResult result = fetch(FetchRequest.get(server.url("/")));
                assertTrue(result.ok(), lengths + ": " + result);
                assertEquals("hello", result.text(), lengths);
                assertEquals("hi", fetch(FetchRequest.get(server.url("/next"))).text(), lengths);
            }
        }
        try (ScriptedServer server = new ScriptedServer("127.0.0.5",
                firstThenHi("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 2\r\n\r\nhello"))) {
            assertFalse(fetch(FetchRequest.get(server.url("/"))).ok(), "where the body ends is not known");
        }
    }

    @Test
    void aChunkedBodyWithAContentLengthIsReadChunkedOnAConnectionNotUsedAgain() throws Exception {
        String both = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n0\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(both))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertTrue(result.ok(), result.toString());
            assertEquals("hello", result.text(), "chunked wins, as RFC 9112 says");
            assertFalse(result.headers().contains("Content-Length"), "the length the body does not have is dropped");
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertEquals("hi", next.text());
            assertFalse(next.timings().reusedConnection(), "a response framed two ways leaves its connection untrusted");
        }
    }

    @Test
    void aTransferEncodingLineOfChunkedSentTwiceIsReadChunkedAsTwistedReadsIt() throws Exception {
        String twice = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: a\r\ntransfer-encoding: Chunked\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(twice + "5\r\nhello\r\n0\r\n\r\n"))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertTrue(result.ok(), result.toString());
            assertEquals("hello", result.text());
            assertEquals("hi", fetch(FetchRequest.get(server.url("/next"))).text(), "the connection carries on");
        }
        String inOneLine = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(inOneLine))) {
            assertFalse(fetch(FetchRequest.get(server.url("/"))).ok(), "a coding Twisted does not know fails there too");
        }
    }

    @Test
    void aChunkedBodyOfAnHttp10ResponseIsReadChunkedOnAConnectionNotUsedAgain() throws Exception {
        String chunks = "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
        for (String head : List.of("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n")) {
            try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(head + chunks))) {
                FetchResult result = fetch(FetchRequest.get(server.url("/")));
                assertTrue(result.ok(), "Twisted under Scrapy reads it chunked: " + result);
                assertEquals("hello world", result.text(), head);
                assertFalse(result.headers().contains("Content-Length"), head);
                FetchResult next = fetch(FetchRequest.get(server.url("/next")));
                assertEquals("hi", next.text());
                assertFalse(next.timings().reusedConnection(), "RFC 9112 §6.1: an HTTP/1.0 message's Transfer-Encoding "
                        + "makes its framing faulty, its connection is closed after it: " + head);
                assertEquals(2, server.acceptedConnections(), head);
            }
        }
    }

    @Test
    void aStatusOfZeroIsAResponseWithItsHeadersAndBodyAsTwistedReadsIt() throws Exception {
        try (ScriptedServer server = new ScriptedServer("127.0.0.5",
                firstThenHi("HTTP/1.1 000 Zero\r\nX-Served-By: odd\r\nContent-Length: 2\r\n\r\nok"))) {
            FetchResult zero = fetch(FetchRequest.get(server.url("/")));
            assertTrue(zero.ok(), zero.toString());
            assertEquals(0, zero.status());
            assertEquals("Zero", zero.reason());
            assertEquals("odd", zero.headers().last("X-Served-By"));
            assertEquals("ok", zero.text());
        }
    }

    @Test
    void anUnaskedSwitchOfProtocolsIsAProtocolErrorAndItsConnectionIsNotKept() throws Exception {
        String upgrade = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer("127.0.0.5", firstThenHi(upgrade))) {
            FetchResult switched = fetch(FetchRequest.get(server.url("/")));
            assertEquals(FetchError.PROTOCOL, switched.error(), switched.toString());
            FetchResult next = fetch(FetchRequest.get(server.url("/next")));
            assertTrue(next.ok(), next.toString());
            assertEquals("hi", next.text());
            assertFalse(next.timings().reusedConnection(), "what follows a 101 is no HTTP/1.1");
        }
    }

    @Test
    void aHeaderBlockLargerThan64KiBIsReadAsBrowsersAndTwistedReadIt() throws Exception {
        StringBuilder cookies = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            cookies.append("Set-Cookie: c").append(i).append('=').append("v".repeat(2000)).append("; Path=/\r\n");
        }
        try (ScriptedServer server = new ScriptedServer("127.0.0.5",
                firstThenHi("HTTP/1.1 200 OK\r\n" + cookies + "Content-Length: 2\r\n\r\nhi"))) {
            FetchResult result = fetch(FetchRequest.get(server.url("/")));
            assertTrue(result.ok(), result.toString());
            assertEquals(60, result.headers().all("Set-Cookie").size());
            assertEquals("hi", result.text());
        }
    }

    @Test
    void aFetchThatEndsWhileItsConnectionIsOpeningClosesIt() throws Exception {
        try (ScriptedServer tarpit = new ScriptedServer("127.0.0.5", ScriptedServer.Exchange::awaitClose);
                HttpFetcher impatient = new HttpFetcher(FetcherConfig.builder().connectTimeout(Duration.ofSeconds(60))
                        .totalTimeout(Duration.ofSeconds(2)).build())) {
            String url = tarpit.url("/").replace("http:", "https:");
            CompletableFuture<FetchResult> cancelled = impatient.fetch(FetchRequest.get(url));
            await().atMost(Duration.ofSeconds(10)).until(() -> tarpit.acceptedConnections() == 1);
            cancelled.cancel(true);
            await().atMost(Duration.ofSeconds(10)).until(() -> tarpit.openConnections() == 0);

            FetchResult timedOut = impatient.fetch(FetchRequest.get(url)).orTimeout(60, TimeUnit.SECONDS).join();
            assertEquals(FetchError.CONNECT_TIMEOUT, timedOut.error(), "no TLS connection was made: " + timedOut);
            assertEquals(2, tarpit.acceptedConnections(), "the handshake was under way when the fetch timed out");
            await().atMost(Duration.ofSeconds(10)).until(() -> tarpit.openConnections() == 0);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
