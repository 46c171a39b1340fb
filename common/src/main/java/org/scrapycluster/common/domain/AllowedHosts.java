package org.scrapycluster.common.domain;

import java.net.InetAddress;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.scrapycluster.common.settings.Settings;

/**
 * The host names an HTTP call's {@code Host} header may give, for the REST gateway ({@code REST_ALLOWED_HOSTS}) and the
 * services' metrics endpoint ({@code METRICS_ALLOWED_HOSTS}; docs/security.md). A web page can point its own name at 127.0.0.1 once the browser has
 * loaded it (DNS rebinding) and then call a server on loopback as its own site: the browser sends that name as the
 * {@code Host}. So a server on a loopback address answers only calls that name it by an IP address, {@code localhost}
 * (or a name under {@code .localhost}, which browsers never look up), or a listed name. A server on another address
 * checks names only when some are listed: the names its clients use are not known otherwise. A call without a
 * {@code Host} header does not come from a browser.
 */
public final class AllowedHosts {

    private static final String LOCALHOST = "localhost";

    private final boolean checked;
    private final Set<String> names;

    private AllowedHosts(boolean checked, Set<String> names) {
        this.checked = checked;
        this.names = names;
    }

    /**
     * The hosts of a server bound to {@code bound}, with the names {@code listed}, each read as a {@code Host} header is
     * ({@link UrlHost}: any case, a trailing dot, a Unicode name or a {@code :port} match the name a browser sends).
     *
     * @throws IllegalArgumentException when a listed name is no host name
     */
    public static AllowedHosts of(InetAddress bound, Collection<String> listed) {
        Set<String> names = listed.stream().map(AllowedHosts::listedName).collect(Collectors.toUnmodifiableSet());
        return new AllowedHosts(bound.isLoopbackAddress() || !names.isEmpty(), names);
    }

    /**
     * The names of the list setting {@code setting} ({@code REST_ALLOWED_HOSTS}, {@code METRICS_ALLOWED_HOSTS}), checked.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting when a name is no host name
     */
    public static List<String> listed(Settings settings, String setting) {
        List<String> names = settings.getStringList(setting);
        try {
            names.forEach(AllowedHosts::listedName);
        } catch (IllegalArgumentException e) {
            throw settings.invalid(setting, e.getMessage());
        }
        return names;
    }

    private static String listedName(String listed) {
        try {
            return UrlHost.parse(listed.strip()).name();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lists '" + listed + "', which is not a host name (" + e.getMessage() + ")", e);
        }
    }

    /** Whether a call whose {@code Host} header is {@code host} (null when it has none) is answered. */
    public boolean allows(String host) {
        if (!checked || host == null) {
            return true;
        }
        if (!isHostAndPort(host.strip())) { // a URL's reading would take evil.example@127.0.0.1 for 127.0.0.1
            return false;
        }
        UrlHost named;
        try {
            named = UrlHost.parse(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
        String name = named.name();
        return named.ipLiteral() || name.equals(LOCALHOST) || name.endsWith("." + LOCALHOST) || names.contains(name);
    }

    /**
     * Whether {@code host} may be a {@code Host} header's host and port (RFC 3986's {@code host [ ":" port ]}): the
     * characters of a name, an IP address or a bracketed IPv6 literal, none of them blank, a control character, or the
     * {@code @} of user information, which a {@code Host} header never has.
     */
    public static boolean isHostAndPort(String host) {
        return !host.isEmpty() && host.chars().allMatch(AllowedHosts::inHost);
    }

    private static boolean inHost(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~!$&'()*+,;=:%[]".indexOf(c) >= 0;
    }
}
