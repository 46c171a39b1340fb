package org.scrapycluster.embedded.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scrapycluster.embedded.FreePorts;

/** The fault-injection proxy in front of a server that may be away. */
class TcpProxyTest {

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aServerAwayWhenAClientConnectsClosesThatClientAloneAndTheNextOneReachesItOnceItIsBack() throws IOException {
        int port = FreePorts.pick();
        InetSocketAddress upstream = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        try (TcpProxy proxy = TcpProxy.start("proxy-test", upstream, TcpProxy.COPY, TcpProxy.COPY)) {
            try (Socket refused = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                refused.setSoTimeout(10_000);
                assertEquals(-1, refused.getInputStream().read(), "closed: the server is away");
            }
            try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
                 Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
                 Socket accepted = server.accept()) {
                client.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
                assertEquals("ping", new String(accepted.getInputStream().readNBytes(4), StandardCharsets.US_ASCII));
            }
        }
    }
}
