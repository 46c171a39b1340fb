package org.scrapycluster.redismonitor;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.zookeeper.ZooDefs;
import org.scrapycluster.embedded.proxy.TcpProxy;

/**
 * A TCP proxy in front of ZooKeeper that passes everything until a client sends a {@code setData}:
 * that request reaches ZooKeeper (which applies it), but from then on nothing ZooKeeper sends
 * reaches any client, so the write is in flight, unanswered, for as long as the client waits.
 * It reads the client's side as ZooKeeper frames it: a 4-byte length, then the connect request
 * first, then requests that start with their xid and operation code.
 */
final class ReplyDroppingProxy implements AutoCloseable {

    private final AtomicBoolean dropping = new AtomicBoolean();
    private final TcpProxy proxy;

    /** @param zookeeperConnect one {@code host:port} */
    ReplyDroppingProxy(String zookeeperConnect) throws IOException {
        int colon = zookeeperConnect.lastIndexOf(':');
        InetSocketAddress zookeeper = new InetSocketAddress(zookeeperConnect.substring(0, colon),
                Integer.parseInt(zookeeperConnect.substring(colon + 1)));
        this.proxy = TcpProxy.start("zk-proxy", zookeeper, this::requests, this::replies);
    }

    /** {@code host:port} to give clients. */
    String connectString() {
        return "127.0.0.1:" + proxy.port();
    }

    /** Whether a {@code setData} went through, and replies are dropped since. */
    boolean dropping() {
        return dropping.get();
    }

    private void requests(InputStream client, OutputStream zookeeper) throws IOException {
        DataInputStream in = new DataInputStream(client);
        boolean connectRequest = true;
        while (true) {
            int length = in.readInt();
            byte[] frame = new byte[length];
            in.readFully(frame);
            if (!connectRequest && length >= 8 && ByteBuffer.wrap(frame).getInt(4) == ZooDefs.OpCode.setData) {
                dropping.set(true);
            }
            connectRequest = false;
            zookeeper.write(ByteBuffer.allocate(4).putInt(length).array());
            zookeeper.write(frame);
            zookeeper.flush();
        }
    }

    private void replies(InputStream zookeeper, OutputStream client) throws IOException {
        byte[] buffer = new byte[8192];
        for (int read = zookeeper.read(buffer); read >= 0; read = zookeeper.read(buffer)) {
            if (!dropping.get()) {
                client.write(buffer, 0, read);
                client.flush();
            }
        }
    }

    @Override
    public void close() throws IOException {
        proxy.close();
    }
}
