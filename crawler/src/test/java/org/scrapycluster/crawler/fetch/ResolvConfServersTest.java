package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.netty.resolver.dns.DnsServerAddressStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DNS servers of a resolv.conf file, read on a clock of the test's. */
class ResolvConfServersTest {

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000);

    private ResolvConfServers servers(String text) throws IOException {
        Path file = dir.resolve("resolv.conf");
        Files.writeString(file, text);
        return new ResolvConfServers(file.toFile(), clock::get);
    }

    private void rewrite(String text) throws IOException {
        Files.writeString(dir.resolve("resolv.conf"), text);
    }

    /** The first {@code count} servers asked for {@code host}. */
    private static List<InetSocketAddress> asked(ResolvConfServers servers, int count) {
        DnsServerAddressStream stream = servers.nameServerAddressStream("www.example.org");
        return Stream.generate(stream::next).limit(count).toList();
    }

    private static InetSocketAddress server(String address) {
        return new InetSocketAddress(address, 53);
    }

    @Test
    void theServersOfTheFileAreAskedInTurn() throws IOException {
        ResolvConfServers servers = servers("# a comment\nsearch example.org\nnameserver 127.0.0.9\nnameserver 127.0.0.10\n");
        assertEquals(List.of(server("127.0.0.9"), server("127.0.0.10"), server("127.0.0.9")), asked(servers, 3));
    }

    @Test
    void aFileThatNamesNoServerSendsQueriesToTheLocalMachine() throws IOException {
        assertEquals(List.of(ResolvConfServers.LOCAL, ResolvConfServers.LOCAL), asked(servers("search example.org\n"), 2));
        assertEquals(List.of(ResolvConfServers.LOCAL), asked(new ResolvConfServers(dir.resolve("missing").toFile(), clock::get), 1),
                "a file that cannot be read names no server");
    }

    @Test
    void theFileIsReadAgainOnceItsReadingIsFiveMinutesOld() throws IOException {
        ResolvConfServers servers = servers("nameserver 127.0.0.9\n");
        rewrite("nameserver 127.0.0.11\n");
        clock.addAndGet(ResolvConfServers.REREAD_NANOS - 1);
        assertEquals(List.of(server("127.0.0.9")), asked(servers, 1), "the reading is not yet 5 minutes old");

        clock.addAndGet(1);
        assertEquals(List.of(server("127.0.0.11")), asked(servers, 1));

        rewrite("options ndots:2\n");
        clock.addAndGet(ResolvConfServers.REREAD_NANOS);
        assertEquals(List.of(ResolvConfServers.LOCAL), asked(servers, 1),
                "a file that no longer names a server sends queries to the local machine, never to a public resolver");

        rewrite("nameserver 127.0.0.12\n");
        clock.addAndGet(ResolvConfServers.REREAD_NANOS);
        assertEquals(List.of(server("127.0.0.12")), asked(servers, 1));
    }
}
