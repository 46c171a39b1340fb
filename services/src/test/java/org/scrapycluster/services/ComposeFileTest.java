package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.cli.ServiceLauncher;
import org.scrapycluster.crawler.node.CrawlerCommand;
import org.scrapycluster.redismonitor.RedisMonitorCommand;
import org.yaml.snakeyaml.nodes.Node;

/** docker-compose.yml and its debug override, as docs/operations.md ("Docker Compose") describes them. */
class ComposeFileTest {

    private static final Set<String> CLUSTER_SERVICES = Set.of("kafka-monitor", "redis-monitor", "crawler", "rest");
    /** The {@code METRICS_PORT} the image sets for every service (DockerfileTest); the gateway's own port is 5343. */
    private static final String IMAGE_METRICS_PORT = "5344";
    private static final String GATEWAY_PORT = "5343";

    private final Map<String, Map<String, Object>> services = services("docker-compose.yml");
    private final Map<String, Map<String, Object>> debug = services("docker-compose.debug.yml");

    @Test
    void onlyTheGatewayIsPublishedByDefault() {
        Map<String, Object> published = new TreeMap<>();
        services.forEach((name, service) -> {
            if (service.get("ports") != null && service.get("profiles") == null) {
                published.put(name, service.get("ports"));
            }
        });
        assertEquals(Map.of("rest", List.of("5343:5343")), published);
        services.forEach((name, service) -> {
            if (service.get("profiles") != null) {
                list(service, "ports").forEach(port -> assertTrue(port.startsWith("127.0.0.1:"), name + " publishes " + port));
            }
        });
    }

    @Test
    void theDebugOverridePublishesTheTourPortsOnLoopbackOnly() {
        TreeSet<String> hostPorts = new TreeSet<>();
        debug.forEach((name, service) -> list(service, "ports").forEach(port -> {
            assertTrue(port.startsWith("127.0.0.1:"), name + " publishes " + port);
            hostPorts.add(port.split(":")[1]);
        }));
        assertEquals(new TreeSet<>(Set.of("2181", "5343", "5344", "5345", "6379", "9092")), hostPorts);
        assertEquals("true", env(debug.get("rest")).get("REST_ALLOW_ANONYMOUS"));
        // on 0.0.0.0 in its container the gateway checks Host only once a name is listed (AllowedHosts)
        assertEquals("localhost", env(debug.get("rest")).get("REST_ALLOWED_HOSTS"));
    }

    /**
     * The debug override's metrics endpoints listen on 0.0.0.0 and are reachable from the host's browser: each checks
     * the Host header by listing the one name Prometheus scrapes it by (prometheus.yml, host-crawler.yml).
     */
    @Test
    void theDebugOverridesMetricsEndpointsCheckHostAndListTheirScrapeName() {
        Set<String> scraped = new TreeSet<>(staticTargets());
        for (String file : crawlerTargetFiles()) {
            list(debug.get("prometheus"), "volumes").stream().map(volume -> volume.split(":")).filter(volume -> volume[1].equals(file))
                    .forEach(volume -> scraped.addAll(targets(volume[0])));
        }
        for (String service : List.of("kafka-monitor", "redis-monitor", "crawler")) {
            String allowed = env(debug.get(service)).get("METRICS_ALLOWED_HOSTS");
            assertNotNull(allowed, service + " answers any Host on 0.0.0.0");
            assertTrue(scraped.stream().anyMatch(target -> target.startsWith(allowed + ":")), service + " lists " + allowed
                    + ", which Prometheus does not scrape by: " + scraped);
        }
    }

    /** The targets of the {@code static_configs} of prometheus.yml's jobs. */
    @SuppressWarnings("unchecked")
    private static List<String> staticTargets() {
        List<Map<String, Object>> jobs = (List<Map<String, Object>>) RepositoryFiles.yamlMap("deploy/monitoring/prometheus/prometheus.yml")
                .get("scrape_configs");
        return jobs.stream().flatMap(job -> ((List<Map<String, Object>>) job.getOrDefault("static_configs", List.of())).stream())
                .flatMap(config -> list(config, "targets").stream()).toList();
    }

    /**
     * With the debug override each service answers {@code /health} and {@code /metrics} on 127.0.0.1 of the host at a
     * port of its own, its default outside containers (docs/operations.md, "Debugging from the host"); the gateway
     * serves them on its API port.
     */
    @Test
    void theDebugOverrideGivesEveryServiceItsOwnHealthAddress() {
        Map<String, String> ports = new TreeMap<>();
        CLUSTER_SERVICES.forEach(name -> ports.put(name, debugHealthPort(name)));
        assertEquals(Map.of("kafka-monitor", "5344", "redis-monitor", "5345", "crawler", "5346", "rest", GATEWAY_PORT), ports);
    }

    /** The port of the host's 127.0.0.1 where the debug override's {@code name} answers {@code /health}, or null. */
    private String debugHealthPort(String name) {
        Map<String, Object> service = debug.getOrDefault(name, Map.of());
        if ("host".equals(service.get("network_mode"))) {
            String host = env(service).get("METRICS_HOST");
            return host.equals("127.0.0.1") || host.equals("0.0.0.0") ? env(service).get("METRICS_PORT") : null;
        }
        String containerPort = name.equals("rest") ? GATEWAY_PORT : IMAGE_METRICS_PORT;
        return list(service, "ports").stream().map(port -> port.split(":")).filter(port -> port[2].equals(containerPort))
                .map(port -> port[1]).findFirst().orElse(null);
    }

    /**
     * The debug override's crawler is on the host's network, where the monitoring profile's Prometheus cannot find it by
     * its name: Prometheus reaches it as {@code host.docker.internal}, the host seen from a container, through a
     * target file that the crawler job of prometheus.yml reads and only the debug override mounts.
     */
    @Test
    void theMonitoringProfileScrapesTheDebugCrawlerOnTheHostsNetwork() {
        Map<String, Object> crawler = debug.get("crawler");
        assertEquals("host", crawler.get("network_mode"));
        assertEquals("0.0.0.0", env(crawler).get("METRICS_HOST"), "the crawler's metrics answer only on the host's loopback");
        Map<String, Object> prometheus = debug.get("prometheus");
        assertNotNull(prometheus, "docker-compose.debug.yml leaves Prometheus looking for the crawler by its name");
        assertEquals(List.of("host.docker.internal:host-gateway"), list(prometheus, "extra_hosts"));
        Set<String> targets = new TreeSet<>();
        for (String file : crawlerTargetFiles()) {
            list(prometheus, "volumes").stream().map(volume -> volume.split(":")).filter(volume -> volume[1].equals(file))
                    .forEach(volume -> targets.addAll(targets(volume[0])));
        }
        assertEquals(Set.of("host.docker.internal:" + env(crawler).get("METRICS_PORT")), targets);
    }

    /** The files of the {@code file_sd_configs} of prometheus.yml's crawler job. */
    @SuppressWarnings("unchecked")
    private static List<String> crawlerTargetFiles() {
        List<Map<String, Object>> jobs = (List<Map<String, Object>>) RepositoryFiles.yamlMap("deploy/monitoring/prometheus/prometheus.yml")
                .get("scrape_configs");
        Map<String, Object> crawler = jobs.stream().filter(job -> "crawler".equals(job.get("job_name"))).findFirst().orElseThrow();
        List<Map<String, Object>> fileConfigs = (List<Map<String, Object>>) crawler.getOrDefault("file_sd_configs", List.of());
        return fileConfigs.stream().flatMap(config -> list(config, "files").stream()).toList();
    }

    /** The targets a Prometheus target file ({@code ./deploy/...}) names. */
    @SuppressWarnings("unchecked")
    private static List<String> targets(String file) {
        List<Map<String, Object>> groups = (List<Map<String, Object>>) RepositoryFiles.yamlDocuments(RepositoryFiles.root().resolve(file)).get(0);
        return groups.stream().flatMap(group -> list(group, "targets").stream()).toList();
    }

    /**
     * The debug gateway answers without keys, as docs/operations.md ("Debugging from the host") says. Compose
     * appends an override's {@code env_file} to the base's, so only {@code !reset} keeps the base's
     * {@code rest-keys.env}, which the Docker Compose steps have you write first, from turning keys on.
     */
    @Test
    void theDebugGatewayReadsNoKeysFile() {
        assertFalse(list(services.get("rest"), "env_file").isEmpty(), "the base gateway reads rest-keys.env");
        Node envFile = RepositoryFiles.yamlNode("docker-compose.debug.yml", "services", "rest", "env_file");
        assertNotNull(envFile, "docker-compose.debug.yml leaves the gateway's env_file as the base has it");
        assertEquals("!reset", envFile.getTag().getValue());
    }

    @Test
    void kafkaAdvertisesASecondListenerOnTheHost() {
        Map<String, String> kafka = env(services.get("kafka"));
        Map<String, String> listeners = listeners(kafka.get("KAFKA_LISTENERS"));
        Map<String, String> advertised = listeners(kafka.get("KAFKA_ADVERTISED_LISTENERS"));
        assertEquals("kafka:9092", advertised.get("PLAINTEXT"));
        String hostListener = advertised.entrySet().stream().filter(e -> e.getValue().equals("127.0.0.1:9092"))
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError("no listener on 127.0.0.1:9092: " + advertised));
        String containerPort = listeners.get(hostListener).substring(1);
        assertEquals(List.of("127.0.0.1:9092:" + containerPort), list(debug.get("kafka"), "ports"));
        assertTrue(kafka.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").contains(hostListener + ":PLAINTEXT"));
    }

    @Test
    void everyServiceHasAHealthCheck() {
        services.forEach((name, service) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> healthcheck = (Map<String, Object>) service.get("healthcheck");
            assertNotNull(healthcheck, name);
            assertFalse(list(healthcheck, "test").isEmpty(), name);
        });
        assertEquals(List.of("CMD", "/opt/scrapy-cluster/bin/healthcheck"), list(services.get("crawler").get("healthcheck"), "test"));
    }

    @Test
    void redisAndKafkaKeepTheirDataInNamedVolumes() {
        @SuppressWarnings("unchecked")
        Set<String> declared = ((Map<String, Object>) RepositoryFiles.yamlMap("docker-compose.yml").get("volumes")).keySet();
        assertTrue(list(services.get("redis"), "volumes").stream().anyMatch(v -> declared.contains(v.split(":")[0]) && v.endsWith(":/data")));
        String command = String.join(" ", list(services.get("redis"), "command"));
        assertTrue(command.contains("--appendonly yes"), command);
        String logDirs = env(services.get("kafka")).get("KAFKA_LOG_DIRS");
        assertTrue(list(services.get("kafka"), "volumes").stream().anyMatch(v -> declared.contains(v.split(":")[0]) && v.endsWith(":" + logDirs)));
    }

    @Test
    void theServicesGetPluginsKeysAndTimeToStop() {
        for (String name : CLUSTER_SERVICES) {
            Map<String, Object> service = services.get(name);
            assertTrue(list(service, "volumes").contains("./plugins:/opt/scrapy-cluster/plugins:ro"), name);
            Duration grace = switch (name) {
                case "crawler" -> CrawlerCommand.SHUTDOWN_GRACE;
                case "redis-monitor" -> RedisMonitorCommand.SHUTDOWN_GRACE;
                default -> ServiceLauncher.SHUTDOWN_GRACE;
            };
            String stopGrace = (String) service.get("stop_grace_period");
            assertTrue(Duration.ofSeconds(Long.parseLong(stopGrace.replace("s", ""))).compareTo(grace) > 0, name + " " + stopGrace);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> envFile = (Map<String, Object>) ((List<?>) services.get("rest").get("env_file")).get(0);
        assertEquals("rest-keys.env", envFile.get("path"));
        assertTrue(RepositoryFiles.read(".gitignore").lines().anyMatch("rest-keys.env"::equals));
    }

    @Test
    void theMonitoringProfileMountsTheProvisionedFiles() {
        TreeSet<String> mounted = new TreeSet<>();
        services.forEach((name, service) -> {
            if (list(service, "profiles").contains("monitoring")) {
                list(service, "volumes").stream().filter(v -> v.startsWith("./")).forEach(v -> mounted.add(v.split(":")[0]));
            }
        });
        assertEquals(new TreeSet<>(Set.of(
                "./deploy/monitoring/prometheus/prometheus.yml",
                "./deploy/monitoring/prometheus/alerts.yml",
                "./deploy/monitoring/grafana/provisioning/datasources/datasource.yml",
                "./deploy/monitoring/grafana/provisioning/dashboards/dashboards.yml",
                "./deploy/monitoring/grafana/dashboards/scrapy-cluster.json")), mounted);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services(String file) {
        return (Map<String, Map<String, Object>>) RepositoryFiles.yamlMap(file).get("services");
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(Object map, String key) {
        Object value = ((Map<String, Object>) map).get(key);
        return value == null ? List.of() : ((List<Object>) value).stream().map(String::valueOf).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> env(Map<String, Object> service) {
        Map<String, String> env = new TreeMap<>();
        ((Map<String, Object>) service.get("environment")).forEach((k, v) -> env.put(k, String.valueOf(v)));
        return env;
    }

    /** {@code NAME://host:port,...} as name to {@code host:port}. */
    private static Map<String, String> listeners(String spec) {
        Map<String, String> listeners = new TreeMap<>();
        for (String listener : spec.split(",")) {
            String[] parts = listener.split("://");
            listeners.put(parts[0], parts[1]);
        }
        return listeners;
    }
}
