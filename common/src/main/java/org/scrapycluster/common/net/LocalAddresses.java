package org.scrapycluster.common.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

/** Whether an address a listener is given to bind is one this host can bind: a setting's check before any bind. */
public final class LocalAddresses {

    private LocalAddresses() {
    }

    /**
     * Whether {@code address} resolves to a wildcard address, a loopback address or one of this host's interfaces; when the
     * interfaces cannot be read, true, and the bind says.
     */
    public static boolean isOfThisHost(InetSocketAddress address) {
        if (address.isUnresolved()) {
            return false;
        }
        InetAddress ip = address.getAddress();
        try {
            return ip.isAnyLocalAddress() || ip.isLoopbackAddress() || NetworkInterface.getByInetAddress(ip) != null;
        } catch (SocketException e) {
            return true;
        }
    }
}
