package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The address blocks that do not belong to the public internet — loopback, unspecified, private (RFC 1918),
 * carrier-grade NAT, link-local, unique-local and site-local IPv6, benchmarking, multicast, reserved, and the other
 * blocks IANA's special-purpose registries say are not globally reachable (IETF protocol assignments,
 * documentation, discard-only, local-use NAT64, ORCHID, SRv6, the rest of {@code ::/8}): no public server has such an
 * address, so one only reaches
 * something of the network the crawler is in — and
 * the IPv6 forms that carry an IPv4 address inside (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4), which are
 * judged by the IPv4 address they carry.
 */
final class InternalAddresses {

    private record Block(NetworkRange range, String kind) {
    }

    private static final List<Block> IPV4 = List.of(
            block("0.0.0.0/8", "an unspecified (this-network) address"),
            block("10.0.0.0/8", "a private (RFC 1918) address"),
            block("100.64.0.0/10", "a carrier-grade NAT address"),
            block("127.0.0.0/8", "a loopback address"),
            block("169.254.0.0/16", "a link-local address"),
            block("172.16.0.0/12", "a private (RFC 1918) address"),
            block("192.0.0.0/24", "an IETF protocol assignment address"),
            block("192.0.2.0/24", "a documentation address"),
            block("192.168.0.0/16", "a private (RFC 1918) address"),
            block("198.18.0.0/15", "a benchmarking address"),
            block("198.51.100.0/24", "a documentation address"),
            block("203.0.113.0/24", "a documentation address"),
            block("224.0.0.0/4", "a multicast address"),
            block("240.0.0.0/4", "a reserved or broadcast address"));

    private static final List<Block> IPV6 = List.of(
            block("::/128", "an unspecified address"),
            block("::1/128", "a loopback address"),
            block("64:ff9b:1::/48", "a local-use NAT64 address"),
            block("100::/64", "a discard-only address"),
            block("2001:2::/48", "a benchmarking address"),
            block("2001:10::/28", "an ORCHID address"),
            block("2001:db8::/32", "a documentation address"),
            block("3fff::/20", "a documentation address"),
            block("5f00::/16", "a segment-routing (SRv6) address"),
            block("fc00::/7", "a unique-local address"),
            block("fe80::/10", "a link-local address"),
            block("fec0::/10", "a site-local address"),
            block("ff00::/8", "a multicast address"));

    /** IPv6 blocks whose last 32 bits are an IPv4 address: IPv4-mapped, IPv4-translated (SIIT), IPv4-compatible, NAT64. */
    private static final List<NetworkRange> IPV4_IN_LAST_32_BITS = List.of(NetworkRange.parse("::ffff:0:0/96"),
            NetworkRange.parse("::ffff:0:0:0/96"), NetworkRange.parse("::/96"), NetworkRange.parse("64:ff9b::/96"));
    /** The rest of {@code ::/8}, which the IETF keeps reserved: no server has such an address. */
    private static final Block RESERVED = block("::/8", "a reserved address");
    /** 6to4: the IPv4 address follows the first 16 bits. */
    private static final NetworkRange SIX_TO_FOUR = NetworkRange.parse("2002::/16");

    private InternalAddresses() {
    }

    /** What kind of internal address {@code address} is ("a loopback address"), or empty for a public one. */
    static Optional<String> kindOf(InetAddress address) {
        return kindOf(address.getAddress());
    }

    private static Optional<String> kindOf(byte[] bytes) {
        if (bytes.length == 4) {
            return find(IPV4, bytes);
        }
        Optional<String> kind = find(IPV6, bytes);
        if (kind.isPresent()) {
            return kind;
        }
        for (NetworkRange range : IPV4_IN_LAST_32_BITS) {
            if (range.contains(bytes)) {
                return embedded(Arrays.copyOfRange(bytes, 12, 16));
            }
        }
        if (SIX_TO_FOUR.contains(bytes)) {
            return embedded(Arrays.copyOfRange(bytes, 2, 6));
        }
        return find(List.of(RESERVED), bytes);
    }

    private static Optional<String> embedded(byte[] ipv4) {
        return find(IPV4, ipv4).map(kind -> kind + " inside an IPv6 address");
    }

    private static Optional<String> find(List<Block> blocks, byte[] bytes) {
        for (Block block : blocks) {
            if (block.range().contains(bytes)) {
                return Optional.of(block.kind());
            }
        }
        return Optional.empty();
    }

    private static Block block(String range, String kind) {
        return new Block(NetworkRange.parse(range), kind);
    }
}
