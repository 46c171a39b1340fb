package org.scrapycluster.common.service;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/**
 * Who this process is in the cluster's Redis keys (docs/compatibility.md §0): the host name and {@code uuid12}, the
 * last 12 hex characters of a random UUID drawn once at start-up.
 */
public record NodeIdentity(String hostname, String uuid12) {

    /** This host's name and a fresh uuid12. */
    public static NodeIdentity create() {
        return new NodeIdentity(localHostname(), newUuid12());
    }

    /** The last dash-separated group of a random UUID. */
    public static String newUuid12() {
        String uuid = UUID.randomUUID().toString();
        return uuid.substring(uuid.lastIndexOf('-') + 1);
    }

    /** {@code <hostname>:<uuid12>}, as heartbeat keys end. */
    @Override
    public String toString() {
        return hostname + ":" + uuid12;
    }

    private static String localHostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null || fromEnvironment.isBlank() ? "localhost" : fromEnvironment;
        }
    }
}
