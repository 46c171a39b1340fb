package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.cli.ServiceLauncher;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.node.CrawlerCommand;
import org.scrapycluster.redismonitor.RedisMonitorCommand;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.yaml.snakeyaml.Yaml;

/**
 * Every manifest under deploy/k8s/ read with fabric8's typed Kubernetes model (custom resources as
 * generic ones), and the properties docs/operations.md ("Kubernetes") promises.
 */
class KubernetesManifestsTest {

    private static final Path K8S = RepositoryFiles.root().resolve("deploy/k8s");
    private static final String PART_OF = "app.kubernetes.io/part-of";
    private static final Set<String> CUSTOM_KINDS = Set.of("ServiceMonitor", "PrometheusRule", "ScaledObject", "Certificate");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final List<HasMetadata> RESOURCES = loadManifests();

    @Test
    void everyManifestIsTypedAndListedInItsKustomization() throws IOException {
        for (HasMetadata resource : RESOURCES) {
            if (CUSTOM_KINDS.contains(resource.getKind())) {
                assertInstanceOf(GenericKubernetesResource.class, resource);
            } else {
                assertFalse(resource instanceof GenericKubernetesResource, resource.getKind() + " is not a typed resource");
            }
            assertFalse(resource.getMetadata().getName().isBlank());
        }
        for (Path kustomization : files("kustomization.yaml")) {
            Map<String, Object> map = RepositoryFiles.yamlMap(RepositoryFiles.root().relativize(kustomization).toString());
            Path dir = kustomization.getParent();
            TreeSet<String> listed = new TreeSet<>(strings(map.get("resources")));
            for (String entry : listed) {
                assertTrue(Files.exists(dir.resolve(entry)), kustomization + " lists " + entry);
            }
            try (Stream<Path> siblings = Files.list(dir)) {
                siblings.map(p -> p.getFileName().toString()).filter(KubernetesManifestsTest::isManifest)
                        .forEach(name -> assertTrue(listed.contains(name), dir + "/" + name + " is in no kustomization"));
            }
        }
        assertEquals(Set.of("Certificate", "Deployment", "HorizontalPodAutoscaler", "Namespace", "NetworkPolicy",
                "PodDisruptionBudget", "PrometheusRule", "ScaledObject", "Service", "ServiceMonitor"), kinds());
    }

    @Test
    void aDeploymentPerServiceWithProbesResourcesAndTimeToStop() {
        Map<String, Duration> graces = Map.of(
                "kafka-monitor", ServiceLauncher.SHUTDOWN_GRACE,
                "rest", ServiceLauncher.SHUTDOWN_GRACE,
                "redis-monitor", RedisMonitorCommand.SHUTDOWN_GRACE,
                "crawler", CrawlerCommand.SHUTDOWN_GRACE);
        List<Deployment> deployments = all(Deployment.class);
        assertEquals(graces.keySet(), names(deployments));
        String metricsPort = RepositoryFiles.envFile(K8S.resolve("base/settings.env")).get("METRICS_PORT");
        for (Deployment deployment : deployments) {
            String name = deployment.getMetadata().getName();
            PodSpec pod = deployment.getSpec().getTemplate().getSpec();
            assertEquals(Boolean.FALSE, pod.getEnableServiceLinks(), name);
            assertTrue(pod.getTerminationGracePeriodSeconds() > graces.get(name).toSeconds(), name);
            assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot(), name);
            assertEquals("scrapy-cluster", deployment.getSpec().getTemplate().getMetadata().getLabels().get(PART_OF), name);
            Container container = pod.getContainers().get(0);
            assertEquals(List.of(name), container.getArgs());
            assertEquals("scrapy-cluster-settings", container.getEnvFrom().get(0).getConfigMapRef().getName());
            // passwords, from a Secret an operator makes: a ConfigMap is readable more widely
            assertEquals("scrapy-cluster-secrets", container.getEnvFrom().get(1).getSecretRef().getName(), name);
            assertEquals(Boolean.TRUE, container.getEnvFrom().get(1).getSecretRef().getOptional(), name);
            assertEquals(Integer.valueOf(metricsPort), container.getPorts().stream()
                    .filter(p -> "metrics".equals(p.getName())).findFirst().orElseThrow().getContainerPort(), name);
            assertEquals("IfNotPresent", container.getImagePullPolicy(), name + ": an image loaded into the node is used");
            assertProbe(container.getLivenessProbe(), "/health/live", name);
            assertProbe(container.getReadinessProbe(), "/health/ready", name);
            for (String resource : List.of("cpu", "memory")) {
                assertNotNull(container.getResources().getRequests().get(resource), name + " requests " + resource);
                assertNotNull(container.getResources().getLimits().get(resource), name + " limits " + resource);
            }
            assertTrue(container.getAdditionalProperties().isEmpty() && pod.getAdditionalProperties().isEmpty(),
                    name + " has fields the model does not know");
        }
    }

    /**
     * The gateway keeps listening a while after its pod is taken out of its Service, for the connections sent on the
     * way, within the grace with its own stop.
     */
    @Test
    void theGatewayWaitsForItsEndpointsToGoBeforeItStops() {
        Deployment rest = all(Deployment.class).stream().filter(deployment -> deployment.getMetadata().getName().equals("rest"))
                .findFirst().orElseThrow();
        List<String> preStop = rest.getSpec().getTemplate().getSpec().getContainers().get(0).getLifecycle().getPreStop().getExec()
                .getCommand();
        assertEquals("sleep", preStop.get(0));
        long grace = rest.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
        assertTrue(Long.parseLong(preStop.get(1)) + ServiceLauncher.SHUTDOWN_GRACE.toSeconds() < grace);
    }

    /** An autoscaled crawler Deployment has no count of its own, which every kubectl apply would set back. */
    @Test
    void theAutoscalingComponentsLeaveTheCrawlersCountToTheirHpa() {
        for (String component : List.of("hpa", "keda")) {
            String patches = String.valueOf(RepositoryFiles.yamlMap("deploy/k8s/components/" + component + "/kustomization.yaml")
                    .get("patches"));
            assertTrue(patches.contains("name=crawler") && patches.contains("op: remove") && patches.contains("path: /spec/replicas"),
                    component + ": " + patches);
        }
        assertFalse(RepositoryFiles.yamlMap("deploy/k8s/overlays/example/kustomization.yaml").containsKey("replicas"));
    }

    /** The example overlay's namespace is one of its resources, so that a first {@code kubectl apply -k} creates it. */
    @Test
    void theExampleOverlayCreatesItsNamespace() {
        Map<String, Object> overlay = RepositoryFiles.yamlMap("deploy/k8s/overlays/example/kustomization.yaml");
        Namespace namespace = only(Namespace.class);
        assertEquals(overlay.get("namespace"), namespace.getMetadata().getName());
        assertTrue(strings(overlay.get("resources")).contains("namespace.yaml"));
    }

    /** A drain takes them one at a time, and leaves a gateway answering and a Redis monitor exporting the backlog. */
    @Test
    void replicatedServicesHaveADisruptionBudgetAndSpreadOverNodes() {
        Set<String> replicated = Set.of("crawler", "rest", "redis-monitor");
        List<PodDisruptionBudget> budgets = all(PodDisruptionBudget.class);
        assertEquals(replicated, names(budgets));
        for (PodDisruptionBudget budget : budgets) {
            String name = budget.getMetadata().getName();
            assertEquals(Map.of("app.kubernetes.io/name", name), budget.getSpec().getSelector().getMatchLabels());
            assertEquals(1, budget.getSpec().getMaxUnavailable().getIntVal(), name);
            // every replica is unready while Kafka, Redis or ZooKeeper is away: drains must not wait for them
            assertEquals("AlwaysAllow", budget.getSpec().getUnhealthyPodEvictionPolicy(), name);
        }
        for (Deployment deployment : all(Deployment.class)) {
            String name = deployment.getMetadata().getName();
            if (replicated.contains(name)) {
                assertTrue(name.equals("crawler") || deployment.getSpec().getReplicas() >= 2, name + ": one replica is no budget");
                TopologySpreadConstraint spread = deployment.getSpec().getTemplate().getSpec().getTopologySpreadConstraints().getFirst();
                assertEquals("kubernetes.io/hostname", spread.getTopologyKey(), name);
                assertEquals(Map.of("app.kubernetes.io/name", name), spread.getLabelSelector().getMatchLabels(), name);
            }
        }
    }

    @Test
    void onlyTheGatewayIsAdmittedFromOutside() {
        List<NetworkPolicy> policies = all(NetworkPolicy.class);
        assertTrue(policies.stream().anyMatch(p -> Map.of(PART_OF, "scrapy-cluster").equals(p.getSpec().getPodSelector().getMatchLabels())
                && p.getSpec().getPolicyTypes().contains("Ingress") && p.getSpec().getIngress().isEmpty()), "no deny-all policy");
        List<String> openToAll = new ArrayList<>();
        for (NetworkPolicy policy : policies) {
            for (NetworkPolicyIngressRule rule : policy.getSpec().getIngress()) {
                if (rule.getFrom().isEmpty()) {
                    openToAll.add(policy.getSpec().getPodSelector().getMatchLabels() + " " + rule.getPorts().get(0).getPort().getStrVal());
                } else {
                    rule.getFrom().forEach(peer -> assertTrue(peer.getIpBlock() == null && peer.getNamespaceSelector() != null,
                            policy.getMetadata().getName() + " admits " + peer));
                }
            }
        }
        assertEquals(List.of("{app.kubernetes.io/name=rest} http"), openToAll);
    }

    @Test
    void prometheusScrapesEveryService() {
        GenericKubernetesResource monitor = only(GenericKubernetesResource.class, "ServiceMonitor");
        assertEquals("monitoring.coreos.com/v1", monitor.getApiVersion());
        assertEquals(Map.of("matchLabels", Map.of(PART_OF, "scrapy-cluster")), monitor.get("spec", "selector"));
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        assertEquals("metrics", endpoints.get(0).get("port"));
        List<Service> services = all(Service.class);
        assertEquals(names(all(Deployment.class)), names(services));
        for (Service service : services) {
            assertEquals("scrapy-cluster", service.getMetadata().getLabels().get(PART_OF));
            assertTrue(service.getSpec().getPorts().stream().anyMatch(p -> "metrics".equals(p.getName())), service.getMetadata().getName());
        }
    }

    /**
     * The base applies without the Prometheus Operator's CRDs: its ServiceMonitor and the alert rules, the same as
     * compose's alerts.yml, are a component, which the example overlay includes.
     */
    @Test
    void thePrometheusOperatorResourcesAreAComponentWithTheComposeAlerts() {
        String component = "deploy/k8s/components/prometheus-operator/";
        Map<String, Object> kustomization = RepositoryFiles.yamlMap(component + "kustomization.yaml");
        assertEquals("Component", kustomization.get("kind"));
        assertEquals(Set.of("servicemonitor.yaml", "prometheusrule.yaml"), Set.copyOf(strings(kustomization.get("resources"))));
        assertFalse(strings(RepositoryFiles.yamlMap("deploy/k8s/base/kustomization.yaml").get("resources")).contains("servicemonitor.yaml"));
        assertTrue(strings(RepositoryFiles.yamlMap("deploy/k8s/overlays/example/kustomization.yaml").get("components"))
                .contains("../../components/prometheus-operator"));

        GenericKubernetesResource rule = only(GenericKubernetesResource.class, "PrometheusRule");
        assertEquals("monitoring.coreos.com/v1", rule.getApiVersion());
        Map<String, Object> raw = RepositoryFiles.yamlMap(component + "prometheusrule.yaml");
        assertEquals(RepositoryFiles.yamlMap("deploy/monitoring/prometheus/alerts.yml").get("groups"), ((Map<?, ?>) raw.get("spec")).get("groups"),
                "prometheusrule.yaml and alerts.yml hold different rules");
    }

    /**
     * HTTPS on the gateway is a component for cert-manager: the Secret its Certificate writes is mounted as a folder, so
     * that a renewal reaches the files the gateway reads again (docs/security.md), the gateway's settings name the files
     * cert-manager writes there, and the API port is renamed in every manifest that names it.
     */
    @Test
    void theTlsComponentGivesTheGatewayTheCertificateManagersSecretAsAFolder() {
        Map<String, Object> kustomization = RepositoryFiles.yamlMap("deploy/k8s/components/rest-tls/kustomization.yaml");
        assertEquals("Component", kustomization.get("kind"));
        GenericKubernetesResource certificate = only(GenericKubernetesResource.class, "Certificate");
        assertEquals("cert-manager.io/v1", certificate.getApiVersion());

        Map<String, List<Map<String, Object>>> patches = patchesByTarget(kustomization);
        List<Map<String, Object>> rest = patches.get("Deployment/rest");
        Map<?, ?> volume = (Map<?, ?>) value(rest, "/spec/template/spec/volumes/-").get(0);
        assertEquals(certificate.get("spec", "secretName"), ((Map<?, ?>) volume.get("secret")).get("secretName"));
        Map<?, ?> mount = (Map<?, ?>) value(rest, "/spec/template/spec/containers/0/volumeMounts/-").get(0);
        assertEquals(volume.get("name"), mount.get("name"));
        assertFalse(mount.containsKey("subPath"), "a file mounted with subPath is never updated");
        Map<Object, Object> env = new HashMap<>();
        for (Object variable : value(rest, "/spec/template/spec/containers/0/env/-")) {
            env.put(((Map<?, ?>) variable).get("name"), ((Map<?, ?>) variable).get("value"));
        }
        Object folder = mount.get("mountPath");
        assertEquals(Map.of("REST_TLS_CERT_FILE", folder + "/tls.crt", "REST_TLS_KEY_FILE", folder + "/tls.key"), env);
        env.keySet().forEach(name -> assertNull(Settings.defaults("rest").getNullableString((String) name), "a gateway setting"));

        Deployment base = all(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals("rest")).findFirst().orElseThrow();
        assertEquals(5343, base.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getContainerPort(),
                "the port renamed is the API's");
        Object port = value(rest, "/spec/template/spec/containers/0/ports/0/name").get(0);
        assertEquals(port, ((Map<?, ?>) value(patches.get("Service/rest"), "/spec/ports/0").get(0)).get("targetPort"));
        assertEquals(List.of(port), value(patches.get("NetworkPolicy/rest-ingress"), "/spec/ingress/0/ports/0/port"));
    }

    /** The JSON patches of a kustomization, by target ({@code Deployment/rest}). */
    @SuppressWarnings("unchecked")
    private static Map<String, List<Map<String, Object>>> patchesByTarget(Map<String, Object> kustomization) {
        Map<String, List<Map<String, Object>>> patches = new HashMap<>();
        for (Map<String, Object> patch : (List<Map<String, Object>>) kustomization.get("patches")) {
            Map<String, Object> target = (Map<String, Object>) patch.get("target");
            patches.put(target.get("kind") + "/" + target.get("name"), new Yaml().load((String) patch.get("patch")));
        }
        return patches;
    }

    /** The values {@code operations} add or put at {@code path}, in their order. */
    private static List<Object> value(List<Map<String, Object>> operations, String path) {
        return operations.stream().filter(op -> path.equals(op.get("path"))).map(op -> op.get("value")).toList();
    }

    @Test
    void crawlersScaleOnTheBacklogWithAnHpaOrKeda() {
        HorizontalPodAutoscaler hpa = only(HorizontalPodAutoscaler.class);
        assertEquals("Deployment", hpa.getSpec().getScaleTargetRef().getKind());
        assertEquals("crawler", hpa.getSpec().getScaleTargetRef().getName());
        MetricSpec metric = hpa.getSpec().getMetrics().get(0);
        assertEquals("External", metric.getType());
        assertEquals("redis_monitor_queue_backlog", metric.getExternal().getMetric().getName());
        assertEquals(Map.of("spider", "link"), metric.getExternal().getMetric().getSelector().getMatchLabels());

        Map<String, Object> adapter = RepositoryFiles.yamlMap("deploy/k8s/components/hpa/prometheus-adapter-values.yaml");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> external = (List<Map<String, Object>>) ((Map<String, Object>) adapter.get("rules")).get("external");
        assertTrue(external.stream().anyMatch(rule -> String.valueOf(rule.get("seriesQuery")).startsWith("redis_monitor_queue_backlog{")
                && "redis_monitor_queue_backlog".equals(((Map<?, ?>) rule.get("name")).get("as"))), "no adapter rule for the HPA's metric");

        GenericKubernetesResource scaledObject = only(GenericKubernetesResource.class, "ScaledObject");
        assertEquals("keda.sh/v1alpha1", scaledObject.getApiVersion());
        assertEquals("crawler", scaledObject.get("spec", "scaleTargetRef", "name"));
        List<Map<String, Object>> triggers = scaledObject.get("spec", "triggers");
        assertEquals("prometheus", triggers.get(0).get("type"));
        String query = String.valueOf(((Map<?, ?>) triggers.get(0).get("metadata")).get("query"));
        assertTrue(query.contains("redis_monitor_queue_backlog{namespace=\"scrapy-cluster\",spider=\"link\"}"),
                "the backlog of the example overlay's namespace, as the adapter's rule reads the HPA's: " + query);

        // KEDA's cooldownPeriod only delays scaling to zero: the same bounds and scale-up and scale-down as the HPA's
        Map<?, ?> hpaSpec = (Map<?, ?>) RepositoryFiles.yamlMap("deploy/k8s/components/hpa/crawler-hpa.yaml").get("spec");
        Map<?, ?> kedaSpec = (Map<?, ?>) RepositoryFiles.yamlMap("deploy/k8s/components/keda/crawler-scaledobject.yaml").get("spec");
        assertEquals(hpaSpec.get("minReplicas"), kedaSpec.get("minReplicaCount"));
        assertEquals(hpaSpec.get("maxReplicas"), kedaSpec.get("maxReplicaCount"));
        assertNotNull(hpaSpec.get("behavior"));
        assertEquals(hpaSpec.get("behavior"), ((Map<?, ?>) ((Map<?, ?>) kedaSpec.get("advanced")).get("horizontalPodAutoscalerConfig")).get("behavior"));
    }

    @Test
    void everySettingInTheConfigMapsIsDeclared() throws IOException {
        TreeSet<String> declared = RepositoryFiles.declaredSettings();
        List<Path> settingsFiles = files("settings.env");
        assertEquals(2, settingsFiles.size(), "the base's and the example overlay's");
        for (Path file : settingsFiles) {
            for (String name : RepositoryFiles.envFile(file).keySet()) {
                assertTrue(declared.contains(name), file + ": " + name + " is not a setting in config/*.yml");
            }
        }
    }

    @Test
    void theGatewayReadsItsKeysFromTheSecret() {
        Deployment rest = all(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals("rest")).findFirst().orElseThrow();
        PodSpec pod = rest.getSpec().getTemplate().getSpec();
        String secretName = pod.getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow().getSecret().getSecretName();
        String keysFile = pod.getContainers().get(0).getEnv().stream().filter(e -> e.getName().equals("REST_API_KEYS_FILE"))
                .findFirst().orElseThrow().getValue();
        Map<String, Object> overlay = RepositoryFiles.yamlMap("deploy/k8s/overlays/example/kustomization.yaml");
        @SuppressWarnings("unchecked")
        Map<String, Object> generator = ((List<Map<String, Object>>) overlay.get("secretGenerator")).get(0);
        assertEquals(secretName, generator.get("name"));
        String key = strings(generator.get("files")).get(0).split("=")[0];
        String mountPath = pod.getContainers().get(0).getVolumeMounts().stream()
                .filter(m -> m.getName().equals(pod.getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow().getName()))
                .findFirst().orElseThrow().getMountPath();
        assertEquals(mountPath + "/" + key, keysFile);
    }

    private static void assertProbe(Probe probe, String path, String deployment) {
        assertNotNull(probe, deployment + " has no probe on " + path);
        assertEquals(path, probe.getHttpGet().getPath(), deployment);
        assertEquals("metrics", probe.getHttpGet().getPort().getStrVal(), deployment);
    }

    private static List<HasMetadata> loadManifests() {
        List<HasMetadata> resources = new ArrayList<>();
        try {
            for (Path file : filesUnder(K8S)) {
                if (isManifest(file.getFileName().toString())) {
                    for (Object document : RepositoryFiles.yamlDocuments(file)) {
                        resources.add((HasMetadata) SERIALIZATION.convertValue(document, KubernetesResource.class));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return resources;
    }

    /** A Kubernetes object, not a kustomization or a Helm values file. */
    private static boolean isManifest(String fileName) {
        return fileName.endsWith(".yaml") && !fileName.equals("kustomization.yaml") && !fileName.endsWith("-values.yaml");
    }

    private static List<Path> files(String fileName) throws IOException {
        return filesUnder(K8S).stream().filter(p -> p.getFileName().toString().equals(fileName)).toList();
    }

    private static List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static Set<String> kinds() {
        TreeSet<String> kinds = new TreeSet<>();
        RESOURCES.forEach(r -> kinds.add(r.getKind()));
        return kinds;
    }

    private static <T extends HasMetadata> List<T> all(Class<T> type) {
        return RESOURCES.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static <T extends HasMetadata> T only(Class<T> type) {
        List<T> found = all(type);
        assertEquals(1, found.size(), type.getSimpleName());
        return found.get(0);
    }

    private static GenericKubernetesResource only(Class<GenericKubernetesResource> type, String kind) {
        List<GenericKubernetesResource> found = all(type).stream().filter(r -> r.getKind().equals(kind)).toList();
        assertEquals(1, found.size(), kind);
        return found.get(0);
    }

    private static Set<String> names(List<? extends HasMetadata> resources) {
        TreeSet<String> names = new TreeSet<>();
        resources.forEach(r -> names.add(r.getMetadata().getName()));
        return names;
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object list) {
        return list == null ? List.of() : ((List<Object>) list).stream().map(String::valueOf).toList();
    }
}
