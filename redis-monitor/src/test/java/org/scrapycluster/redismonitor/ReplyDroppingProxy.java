package org.scrapycluster.redismonitor;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.zookeeper.ZooDefs;

/**
 * A TCP proxy in front of ZooKeeper that passes everything until a client sends a {@code setData}:
 * that request reaches ZooKeeper (which applies it), but from then on nothing ZooKeeper sends
 * reaches any client, so the write is in flight, unanswered, for as long as the client waits.
 * It reads the client's side as ZooKeeper frames it: a 4-byte length, then the connect request
 * first, then requests that start with their xid and operation code.
 */
final class ReplyDroppingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress zookeeper;
    private final AtomicBoolean dropping = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** @param zookeeperConnect one {@code host:port} */
    ReplyDroppingProxy(String zookeeperConnect) throws IOException {
        int colon = zookeeperConnect.lastIndexOf(':');
        this.zookeeper = new InetSocketAddress(zookeeperConnect.substring(0, colon), Integer.parseInt(zookeeperConnect.substring(colon + 1)));
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("zk-proxy-accept").start(this::accept);
    }

    /** {@code host:port} to give clients. */
    String connectString() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Whether a {@code setData} went through, and replies are dropped since. */
    boolean dropping() {
        return dropping.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket upstream = new Socket(zookeeper.getAddress(), zookeeper.getPort());
                sockets.add(client);
                sockets.add(upstream);
                Thread.ofVirtual().name("zk-proxy-requests").start(() -> requests(client, upstream));
                Thread.ofVirtual().name("zk-proxy-replies").start(() -> replies(upstream, client));
            }
        } catch (IOException closed) {
            // the proxy is closed
        }
    }

    private void requests(Socket client, Socket upstream) {
        try (DataInputStream in = new DataInputStream(client.getInputStream())) {
            OutputStream out = upstream.getOutputStream();
            boolean connectRequest = true;
            while (true) {
                int length = in.readInt();
                byte[] frame = new byte[length];
                in.readFully(frame);
                if (!connectRequest && length >= 8 && ByteBuffer.wrap(frame).getInt(4) == ZooDefs.OpCode.setData) {
                    dropping.set(true);
                }
                connectRequest = false;
                out.write(ByteBuffer.allocate(4).putInt(length).array());
                out.write(frame);
                out.flush();
            }
        } catch (IOException closed) {
            // one side went away
        } finally {
            closeQuietly(upstream);
        }
    }

    private void replies(Socket upstream, Socket client) {
        byte[] buffer = new byte[8192];
        try (InputStream in = upstream.getInputStream()) {
            OutputStream out = client.getOutputStream();
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                if (!dropping.get()) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            }
        } catch (IOException closed) {
            // one side went away
        } finally {
            closeQuietly(client);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(ReplyDroppingProxy::closeQuietly);
    }
}
