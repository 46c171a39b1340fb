package org.scrapycluster.bench;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

import org.scrapycluster.common.kafka.BootstrapServers;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster bench <benchmark>}: runs one of the benchmarks the modules contribute as
 * {@link BenchmarkCommand}s. Kafka, Redis and ZooKeeper are the ones given with {@code --kafka},
 * {@code --redis} and {@code --zookeeper}; each one not given is started embedded on a free port
 * for the run and removed afterwards, so a benchmark never touches a running cluster by accident.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommandsRepeatable = false,
        description = {"Measure a part of the cluster; figures are printed with what was measured.",
                "Servers not given with an option are started embedded, on free ports, for the run."})
public final class BenchCommand implements BenchmarkEnvironment, Runnable {

    @Spec
    CommandSpec spec;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Kafka bootstrap servers to use instead of an embedded broker.")
    String kafka;

    @Option(names = "--redis", paramLabel = "HOST:PORT", description = "Redis to use instead of an embedded redis-server.")
    String redis;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT", description = "ZooKeeper to use instead of an embedded server.")
    String zookeeper;

    @Option(names = {"-ll", "--log-level"}, paramLabel = "LEVEL", defaultValue = "WARN",
            description = "Log level while measuring (default: ${DEFAULT-VALUE}).")
    String logLevel;

    /** The command with every benchmark found on the class path, in name order. */
    public static CommandLine commandLine() {
        CommandLine bench = new CommandLine(new BenchCommand());
        ServiceLoader.load(BenchmarkCommand.class).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(command -> command.getClass().getAnnotation(Command.class).name()))
                .forEach(bench::addSubcommand);
        return bench;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing benchmark: one of " + spec.subcommands().keySet());
    }

    @Override
    public BenchmarkCluster open(BenchmarkCluster.Server... needs) {
        if (kafka != null) {
            BootstrapServers.whyNotList(kafka).ifPresent(problem -> {
                throw new ParameterException(spec.commandLine(), "--kafka: " + problem);
            });
        }
        configureLogging();
        Set<BenchmarkCluster.Server> needed = Set.of(needs);
        boolean embedKafka = needed.contains(BenchmarkCluster.Server.KAFKA) && kafka == null;
        boolean embedRedis = needed.contains(BenchmarkCluster.Server.REDIS) && redis == null;
        boolean embedZookeeper = needed.contains(BenchmarkCluster.Server.ZOOKEEPER) && zookeeper == null;
        EmbeddedStack stack = EmbeddedStack.start(new EmbeddedStack.Options(
                embedKafka ? 0 : null, embedZookeeper ? 0 : null, embedRedis ? 0 : null, 2, EmbeddedKafka.KEEP_EVERYTHING, null,
                Duration.ZERO));
        RedisEndpoint redisEndpoint = embedRedis ? RedisEndpoint.of("127.0.0.1", stack.redisPort())
                : redis == null ? null : parseRedis(redis);
        String kafkaBootstrap = embedKafka ? stack.kafkaBootstrap() : kafka;
        String zookeeperConnect = embedZookeeper ? stack.zookeeperConnect() : zookeeper;
        return new BenchmarkCluster() {
            @Override
            public String kafkaBootstrap() {
                return require(kafkaBootstrap, Server.KAFKA);
            }

            @Override
            public RedisEndpoint redis() {
                return require(redisEndpoint, Server.REDIS);
            }

            @Override
            public String zookeeperConnect() {
                return require(zookeeperConnect, Server.ZOOKEEPER);
            }

            @Override
            public boolean isEmbedded(Server server) {
                return switch (server) {
                    case KAFKA -> embedKafka;
                    case REDIS -> embedRedis;
                    case ZOOKEEPER -> embedZookeeper;
                };
            }

            @Override
            public Map<String, Object> launcherValues() {
                Map<String, Object> values = new LinkedHashMap<>();
                if (needed.contains(Server.KAFKA)) {
                    values.put("KAFKA_HOSTS", List.of(kafkaBootstrap));
                }
                if (needed.contains(Server.REDIS)) {
                    values.put("REDIS_HOST", redisEndpoint.host());
                    values.put("REDIS_PORT", redisEndpoint.port());
                }
                if (needed.contains(Server.ZOOKEEPER)) {
                    values.put("ZOOKEEPER_HOSTS", zookeeperConnect);
                }
                return values;
            }

            @Override
            public void close() {
                Logging.closingEmbeddedKafka(stack::close);
            }

            private <T> T require(T address, Server server) {
                if (address == null || !needed.contains(server)) {
                    throw new IllegalStateException("the benchmark did not ask for " + server);
                }
                return address;
            }
        };
    }

    @Override
    public void configureLogging() {
        Logging.configure(Settings.load("standalone", new SettingsSources(null, Map.of(), Map.of("LOG_LEVEL", logLevel))));
    }

    private RedisEndpoint parseRedis(String address) {
        int colon = address.lastIndexOf(':');
        try {
            return colon < 0 ? RedisEndpoint.of(address, 6379)
                    : RedisEndpoint.of(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--redis must be HOST:PORT, was " + address);
        }
    }
}
