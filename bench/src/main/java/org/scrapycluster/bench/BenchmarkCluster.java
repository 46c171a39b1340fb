package org.scrapycluster.bench;

import java.util.Map;

import org.scrapycluster.common.redis.RedisEndpoint;

/** The Kafka, Redis and ZooKeeper a benchmark runs against, embedded or given. */
public interface BenchmarkCluster extends AutoCloseable {

    /** The servers a benchmark can ask for. */
    enum Server { KAFKA, REDIS, ZOOKEEPER }

    /** Kafka bootstrap servers, {@code host:port[,host:port]}. */
    String kafkaBootstrap();

    RedisEndpoint redis();

    /** ZooKeeper connect string, {@code host:port}. */
    String zookeeperConnect();

    /** Whether {@code server} was started for this run (and so needs no cleaning up afterwards). */
    boolean isEmbedded(Server server);

    /**
     * The settings that point a service at the servers the benchmark asked for, to be given as launcher
     * values: {@code KAFKA_HOSTS}, {@code REDIS_HOST} and {@code REDIS_PORT}, {@code ZOOKEEPER_HOSTS}.
     */
    Map<String, Object> launcherValues();

    /** The address of {@code server} for a report, {@code " (embedded)"} after it when it was started for this run. */
    default String describe(Server server) {
        String address = switch (server) {
            case KAFKA -> kafkaBootstrap();
            case REDIS -> redis().toString();
            case ZOOKEEPER -> zookeeperConnect();
        };
        return isEmbedded(server) ? address + " (embedded)" : address;
    }

    /** Stops what was started for the run. */
    @Override
    void close();
}
