package org.scrapycluster.rest.http;

import java.net.InetAddress;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import com.google.common.net.InetAddresses;

/**
 * The host names a call's {@code Host} header may give ({@code REST_ALLOWED_HOSTS}, docs/security.md). A web page can
 * point its own name at 127.0.0.1 once the browser has loaded it (DNS rebinding) and then call a gateway on loopback
 * as its own site: the browser sends that name as the {@code Host}. So a gateway on a loopback address answers only
 * calls that name it by an IP address, {@code localhost} (or a name under {@code .localhost}, which browsers never
 * look up), or a listed name. A gateway on another address checks names only when some are listed: the names its
 * clients use are not known otherwise. A call without a {@code Host} header does not come from a browser.
 */
public final class AllowedHosts {

    private static final String LOCALHOST = "localhost";

    private final boolean checked;
    private final Set<String> names;

    private AllowedHosts(boolean checked, Set<String> names) {
        this.checked = checked;
        this.names = names;
    }

    /** The hosts of a gateway bound to {@code bound}, with the names {@code listed} ({@code REST_ALLOWED_HOSTS}). */
    public static AllowedHosts of(InetAddress bound, Collection<String> listed) {
        Set<String> names = listed.stream().map(name -> name.strip().toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        return new AllowedHosts(bound.isLoopbackAddress() || !names.isEmpty(), names);
    }

    /** Whether a call whose {@code Host} header is {@code host} (null when it has none) is answered. */
    public boolean allows(String host) {
        if (!checked || host == null) {
            return true;
        }
        String name = withoutPort(host.strip()).toLowerCase(Locale.ROOT);
        if (name.startsWith("[")) {
            return name.endsWith("]") && InetAddresses.isInetAddress(name.substring(1, name.length() - 1));
        }
        String bare = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        return InetAddresses.isInetAddress(bare) || bare.equals(LOCALHOST) || bare.endsWith("." + LOCALHOST) || names.contains(bare);
    }

    /** {@code host} without its {@code :port}; an IPv6 literal keeps its brackets. */
    private static String withoutPort(String host) {
        int colon = host.lastIndexOf(':');
        int bracket = host.lastIndexOf(']');
        return colon > bracket ? host.substring(0, colon) : host;
    }
}
