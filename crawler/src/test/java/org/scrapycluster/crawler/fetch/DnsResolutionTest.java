package org.scrapycluster.crawler.fetch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.dns.DnsCnameCache;

/**
 * Host names resolved by the fetcher's DNS client, against a DNS server on loopback that knows {@code good.test},
 * never answers for {@code lame.test} and says any other name does not exist.
 */
class DnsResolutionTest {

    private static final String HI = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";

    private TestDnsServer dns;
    private ScriptedServer site;

    @BeforeEach
    void start() throws Exception {
        dns = new TestDnsServer(Map.of("good.test", "127.0.0.5"), Set.of("lame.test"));
        site = new ScriptedServer("127.0.0.5", exchange -> {
            while (exchange.readHead() != null) {
                exchange.write(HI);
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        site.close();
        dns.close();
    }

    private HttpFetcher fetcher(Duration connectTimeout, AddressPolicy policy) {
        return new HttpFetcher(config(connectTimeout).addressPolicy(policy).build());
    }

    private FetcherConfig.Builder config(Duration connectTimeout) {
        return FetcherConfig.builder().nameServers(List.of(dns.address())).connectTimeout(connectTimeout)
                .totalTimeout(Duration.ofSeconds(60));
    }

    /** {@code url} with the site's port, on {@code host}. */
    private String url(String host, String path) {
        return site.url(path).replace("127.0.0.5", host);
    }

    private static FetchResult fetch(HttpFetcher fetcher, String url) {
        return fetcher.fetch(FetchRequest.get(url)).orTimeout(90, TimeUnit.SECONDS).join();
    }

    @Test
    void lookupsOfANameWhoseServerNeverAnswersHoldUpNoOtherName() {
        try (HttpFetcher fetcher = fetcher(Duration.ofSeconds(60), AddressPolicy.any())) {
            List<CompletableFuture<FetchResult>> lame = new ArrayList<>();
            for (int i = 0; i < 8; i++) { // twice the threads the blocking resolver had
                lame.add(fetcher.fetch(FetchRequest.get(url("lame.test", "/" + i))));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> dns.questions().contains("A lame.test"));

            FetchResult good = fetch(fetcher, url("good.test", "/"));
            assertTrue(good.ok(), good.toString());
            assertEquals("hi", good.text());
            assertTrue(lame.stream().noneMatch(CompletableFuture::isDone), "the lame lookup is still waiting for its answer");
            assertEquals(1, dns.questions().stream().filter("A lame.test"::equals).count(),
                    "the fetches of one name share one lookup: " + dns.questions());
        }
    }

    @Test
    void aLookupLeftUnansweredEndsAfterTheConnectTimeoutAsAnUnresolvableHost() {
        try (HttpFetcher fetcher = fetcher(Duration.ofSeconds(1), AddressPolicy.any())) {
            FetchResult lame = fetch(fetcher, url("lame.test", "/"));
            assertEquals(FetchError.DNS, lame.error(), lame.toString());
            assertEquals("UnknownHostException: lame.test: Temporary failure in name resolution", lame.errorMessage());
        }
    }

    /**
     * The server is given 5 minutes (half the connect timeout) and the fetch 10: only the DNS timeout can end the
     * lookup before the test's bound of 30 s.
     */
    @Test
    void aLookupEndsAfterTheDnsTimeoutWhileOtherNamesStillResolve() {
        try (HttpFetcher fetcher = new HttpFetcher(config(Duration.ofMinutes(10)).totalTimeout(Duration.ofMinutes(10))
                .dnsTimeout(Duration.ofSeconds(1)).build())) {
            CompletableFuture<FetchResult> lame = fetcher.fetch(FetchRequest.get(url("lame.test", "/")));
            FetchResult good = fetch(fetcher, url("good.test", "/"));
            assertTrue(good.ok(), good.toString());

            FetchResult failed = lame.orTimeout(30, TimeUnit.SECONDS).join();
            assertEquals(FetchError.DNS, failed.error(), failed.toString());
            assertEquals("UnknownHostException: lame.test: Temporary failure in name resolution", failed.errorMessage());
            assertEquals(1, dns.questions().stream().filter("A lame.test"::equals).count(), dns.questions().toString());
            assertTrue(fetch(fetcher, url("good.test", "/again")).ok(), "the resolver still answers");
        }
    }

    /**
     * A name that does not exist is remembered, as the JVM's resolver remembered it. Netty's resolver writes its cache
     * entry around the end of the look-up, and a look-up right after one may now and then ask again (about 1 in 300
     * here), so four look-ups may ask twice, not four times.
     */
    @Test
    void aNameThatDoesNotExistFailsWithTheWordsOfTheSystemResolver() {
        try (HttpFetcher fetcher = fetcher(Duration.ofSeconds(10), AddressPolicy.any())) {
            for (int attempt = 0; attempt < 4; attempt++) {
                FetchResult missing = fetch(fetcher, url("nowhere.test", "/"));
                assertEquals(FetchError.DNS, missing.error(), missing.toString());
                assertEquals("UnknownHostException: nowhere.test: Name or service not known", missing.errorMessage());
            }
            List<String> asked = dns.questions().stream().filter(q -> q.startsWith("A ")).toList();
            assertTrue(asked.size() <= 2, "the failure is remembered: " + asked);
        }
    }

    @Test
    void namesInEtcHostsNeedNoDnsServer() throws Exception {
        try (ScriptedServer local = new ScriptedServer("127.0.0.1", exchange -> {
            exchange.readHead();
            exchange.write(HI);
        }); HttpFetcher fetcher = fetcher(Duration.ofSeconds(10), AddressPolicy.any())) {
            FetchResult result = fetch(fetcher, local.url("/").replace("127.0.0.1", "localhost"));
            assertTrue(result.ok(), result.toString());
            assertFalse(dns.questions().stream().anyMatch(q -> q.endsWith(" localhost")), dns.questions().toString());
        }
    }

    @Test
    void theAddressPolicyJudgesTheAddressTheNameResolvedTo() {
        try (HttpFetcher fetcher = fetcher(Duration.ofSeconds(10), AddressPolicy.publicOnly(List.of()))) {
            FetchResult refused = fetch(fetcher, url("good.test", "/"));
            assertEquals(FetchError.FORBIDDEN_ADDRESS, refused.error(), refused.toString());
            assertEquals("good.test: 127.0.0.5 is a loopback address", refused.errorMessage());
            assertEquals(0, site.acceptedConnections());
        }
    }

    /** An alias (CNAME) is remembered for 30 s at most, as an address is, whatever TTL its record says. */
    @Test
    void anAliasIsRememberedForThirtySecondsAtMostWhateverItsRecordSays() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EmbeddedChannel clock = new EmbeddedChannel();
        clock.freezeTime();
        try (HostResolver resolver = new HostResolver(config(Duration.ofSeconds(5)).build(), group.next(),
                NioDatagramChannel.class, NioSocketChannel.class)) {
            DnsCnameCache aliases = resolver.aliases();
            aliases.cache("www.tarpit.test.", "tarpit.test.", TimeUnit.DAYS.toSeconds(730), clock.eventLoop());
            clock.advanceTimeBy(29, TimeUnit.SECONDS);
            clock.runScheduledPendingTasks();
            assertEquals("tarpit.test.", aliases.get("www.tarpit.test."));
            clock.advanceTimeBy(2, TimeUnit.SECONDS);
            clock.runScheduledPendingTasks();
            assertNull(aliases.get("www.tarpit.test."));
        } finally {
            clock.finishAndReleaseAll();
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }
}
