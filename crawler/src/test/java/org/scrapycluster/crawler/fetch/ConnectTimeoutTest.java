package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ConnectTimeoutTest {

    /**
     * A listener that never accepts, its backlog filled by other clients: Linux drops further SYNs, so a
     * connection attempt hangs until the connect timeout.
     */
    @Test
    void connectionThatIsNeverAcceptedTimesOut() throws Exception {
        FetcherConfig impatient = FetcherConfig.builder().connectTimeout(Duration.ofMillis(300)).build();
        assertEquals(FetchError.CONNECT_TIMEOUT, fetchNeverAccepted(impatient));
    }

    /** The total timeout that comes first is a connect timeout all the same while no connection is made. */
    @Test
    void aTotalTimeoutBeforeTheConnectionIsMadeIsAConnectTimeout() throws Exception {
        assertEquals(FetchError.CONNECT_TIMEOUT, fetchNeverAccepted(FetcherConfig.builder().connectTimeout(Duration.ofSeconds(20))
                .totalTimeout(Duration.ofMillis(300)).build()));
    }

    private static FetchError fetchNeverAccepted(FetcherConfig config) throws Exception {
        InetAddress address = InetAddress.getByName("127.0.0.2");
        List<Socket> fillers = new ArrayList<>();
        try (ServerSocket deaf = new ServerSocket()) {
            deaf.bind(new InetSocketAddress(address, 0), 1);
            for (int i = 0; i < 4; i++) {
                Socket filler = new Socket();
                try {
                    filler.connect(deaf.getLocalSocketAddress(), 200);
                    fillers.add(filler);
                } catch (IOException queueFull) {
                    filler.close();
                }
            }
            try (HttpFetcher fetcher = new HttpFetcher(config)) {
                FetchResult result = fetcher.fetch(FetchRequest.get("http://127.0.0.2:" + deaf.getLocalPort() + "/"))
                        .orTimeout(30, TimeUnit.SECONDS).join();
                assertTrue(result.timings().total().toMillis() < 10_000, result.toString());
                return result.error();
            }
        } finally {
            for (Socket filler : fillers) {
                filler.close();
            }
        }
    }
}
