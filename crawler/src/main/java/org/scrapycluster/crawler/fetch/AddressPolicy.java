package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Which resolved addresses the fetcher may connect to. The check runs on the address a host name resolved
 * to, and the connection goes to exactly that address, so a name that resolves (or re-resolves, DNS
 * rebinding) to 127.0.0.1 is refused like the literal address. Internal addresses are the blocks of
 * {@link InternalAddresses}; an operator may let chosen ones through.
 */
public final class AddressPolicy {

    private static final AddressPolicy ANY = new AddressPolicy(false, List.of());

    private final boolean publicOnly;
    private final List<NetworkRange> allowed;

    private AddressPolicy(boolean publicOnly, List<NetworkRange> allowed) {
        this.publicOnly = publicOnly;
        this.allowed = List.copyOf(allowed);
    }

    /** Any address (tests, private deployments). */
    public static AddressPolicy any() {
        return ANY;
    }

    /** Public addresses only, and the internal ones inside {@code allowed}. */
    public static AddressPolicy publicOnly(List<NetworkRange> allowed) {
        return new AddressPolicy(true, allowed);
    }

    /** Whether internal addresses are refused (else every address is allowed). */
    public boolean forbidsInternal() {
        return publicOnly;
    }

    /** Why {@code address} may not be connected to ("127.0.0.1 is a loopback address"), or empty when it may. */
    public Optional<String> refusal(InetAddress address) {
        if (!publicOnly || allowed.stream().anyMatch(range -> range.contains(address))) {
            return Optional.empty();
        }
        return InternalAddresses.kindOf(address).map(kind -> address.getHostAddress() + " is " + kind);
    }

    /** Whether {@code address} may be connected to. */
    public boolean allows(InetAddress address) {
        return refusal(address).isEmpty();
    }

    @Override
    public String toString() {
        return publicOnly ? "public addresses only" + (allowed.isEmpty() ? "" : ", and " + allowed) : "any address";
    }
}
