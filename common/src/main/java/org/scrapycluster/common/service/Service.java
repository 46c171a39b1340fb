package org.scrapycluster.common.service;

import java.net.URI;
import java.util.Optional;

/**
 * A long-running part of the cluster (the Kafka monitor, the Redis monitor, a crawler node, the
 * REST gateway). It is built from a {@link ServiceContext}, registers its health checks and
 * meters there, does its work in its own threads between {@link #start()} and {@link #close()},
 * and survives outages of Redis, Kafka and ZooKeeper by retrying with {@link Backoff}.
 */
public interface Service extends AutoCloseable {

    /** The service's name, as its settings file is named: {@code kafka-monitor}, {@code crawler}, ... */
    String name();

    /** Starts the work in the service's own threads and returns; throws when it cannot start at all. */
    void start();

    /**
     * Where the service answers HTTP requests from users once started (the REST gateway), for the
     * ready line of standalone; empty for a service that has no such address.
     */
    default Optional<URI> userUrl() {
        return Optional.empty();
    }

    /** Stops taking work, finishes or hands back what is in flight, and releases every resource. Idempotent. */
    @Override
    void close();
}
