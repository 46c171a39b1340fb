package org.scrapycluster.common.kafka;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.common.net.Port;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;

/**
 * The brokers a service asks first for the rest of the Kafka cluster, {@code KAFKA_HOSTS}: each entry a host (a name, an
 * IPv4 address, an IPv6 address in brackets) and a port. They are checked as they are read, so that a value no broker
 * can ever answer at (a missing port, a port out of range, an empty entry) stops the service at start with the
 * setting's name, as any bad setting does, instead of failing later inside Kafka's client, each service its own way.
 *
 * <p>A name that does not resolve is another matter: Kafka's clients cannot be made until one of them does ("No
 * resolvable bootstrap urls"), and a name that does not resolve yet (a Kubernetes service whose brokers are not ready,
 * a DNS server that is away) is an outage to wait out, as a broker that does not answer is ({@link #awaitResolvable}).
 *
 * @param hosts the host of each entry, in order, without brackets
 * @param text  the entries as Kafka's {@code bootstrap.servers} takes them
 */
public record BootstrapServers(List<String> hosts, String text) {

    private static final String SETTING = "KAFKA_HOSTS";
    private static final Pattern ENTRY = Pattern.compile("(\\[[^\\]]+\\]|[^\\s\\[\\]]+):([0-9]{1,5})");

    /** The brokers of {@code settings}' {@code KAFKA_HOSTS}; a {@link org.scrapycluster.common.settings.SettingsException} names a bad entry. */
    public static BootstrapServers of(Settings settings) {
        List<String> entries = settings.getStringList(SETTING);
        if (entries.isEmpty()) {
            throw settings.invalid(SETTING, "names no broker: give at least one host:port");
        }
        List<String> hosts = new ArrayList<>(entries.size());
        List<String> texts = new ArrayList<>(entries.size());
        for (String entry : entries) {
            Optional<String> problem = whyNot(entry);
            if (problem.isPresent()) {
                throw settings.invalid(SETTING, "has a bad entry: " + problem.get());
            }
            String trimmed = entry.strip();
            String host = trimmed.substring(0, trimmed.lastIndexOf(':'));
            hosts.add(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
            texts.add(trimmed);
        }
        return new BootstrapServers(List.copyOf(hosts), String.join(",", texts));
    }

    /**
     * Why {@code servers}, a comma-separated list as Kafka's {@code bootstrap.servers} takes it (a command's option),
     * names no broker, or empty when each entry is a host and a port.
     */
    public static Optional<String> whyNotList(String servers) {
        for (String entry : servers.split(",", -1)) {
            Optional<String> problem = whyNot(entry);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    /** Why {@code entry} names no broker ({@code 'localhost' is no host:port …}), or empty when it is a host and a port. */
    public static Optional<String> whyNot(String entry) {
        Matcher matcher = ENTRY.matcher(entry.strip());
        if (!matcher.matches()) {
            return Optional.of("'" + entry + "' is no host:port (kafka-1:9092, 10.0.0.5:9092, [::1]:9092)");
        }
        if (!Port.isConnectable(Port.parse(matcher.group(2)).orElse(-1))) {
            return Optional.of("'" + entry + "' has a port that is not from 1 to " + Port.MAX);
        }
        return Optional.empty();
    }

    /**
     * Returns once a host of these resolves, at once when one does: waits with the services' back-off while none does,
     * saying so once on {@code log} with the resolver's words, and once when one resolves again.
     *
     * @throws InterruptedException when the wait is interrupted (the service is stopping)
     */
    public void awaitResolvable(Logger log) throws InterruptedException {
        Backoff backoff = Backoff.standard();
        while (true) {
            List<String> failures = new ArrayList<>(hosts.size());
            for (String host : hosts) {
                try {
                    InetAddress.getAllByName(host);
                    if (backoff.attempts() > 0) {
                        log.info("A broker of {} resolves again ({}); connecting to Kafka", SETTING, host);
                    }
                    return;
                } catch (UnknownHostException e) {
                    failures.add(host + ": " + e.getMessage());
                }
            }
            if (backoff.attempts() == 0) {
                log.warn("No broker of {} ({}) resolves, so no Kafka client can be made; trying again until one does: {}", SETTING, text,
                        String.join("; ", failures));
            }
            backoff.pause();
        }
    }
}
