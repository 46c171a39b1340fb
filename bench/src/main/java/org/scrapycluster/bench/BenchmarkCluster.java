package org.scrapycluster.bench;

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

    /** Stops what was started for the run. */
    @Override
    void close();
}
