package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** docker/Dockerfile, as docs/operations.md ("Images") describes it. */
class DockerfileTest {

    private final String dockerfile = RepositoryFiles.read("docker/Dockerfile");
    private final List<String> lines = dockerfile.replace("\\\n", " ").lines().map(String::strip).toList();

    @Test
    void theDependencyLayerHasEveryModulesBuildFile() {
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(RepositoryFiles.read("pom.xml"));
        int modules = 0;
        while (module.find()) {
            modules++;
            String copy = "COPY " + module.group(1) + "/pom.xml " + module.group(1) + "/";
            assertTrue(lines.contains(copy), "docker/Dockerfile lacks: " + copy);
        }
        assertTrue(modules > 0);
        int firstSources = lines.indexOf("COPY . .");
        assertTrue(firstSources > 0 && lines.subList(0, firstSources).stream().anyMatch(l -> l.startsWith("RUN ./mvnw")),
                "dependencies are fetched before the sources are copied");
    }

    /**
     * The build stage copies the whole context ({@code COPY . .}), so the gateway keys that docs/operations.md has you
     * write beside the sources (Docker Compose's {@code rest-keys.env}, the example overlay's {@code rest-api-keys.txt})
     * must stay out of it, or they end up in the build stage's layers and cache.
     */
    @Test
    void theGatewayKeysStayOutOfTheBuildContext() {
        List<String> ignored = RepositoryFiles.read(".dockerignore").lines().map(String::strip).toList();
        for (String keys : List.of("rest-keys.env", "deploy/k8s/overlays/example/rest-api-keys.txt")) {
            assertTrue(ignored.contains(keys), ".dockerignore lacks " + keys);
        }
    }

    @Test
    void theImageRunsTheServicesJarAsANonRootUser() {
        assertTrue(lines.contains("COPY --from=build /src/services/target/scrapy-cluster-services.jar scrapy-cluster.jar"));
        String user = lines.stream().filter(l -> l.startsWith("USER ")).reduce((a, b) -> b).orElseThrow();
        assertTrue(user.matches("USER [1-9]\\d*:[1-9]\\d*"), "numeric, not root: " + user);
        String entrypoint = lines.stream().filter(l -> l.startsWith("ENTRYPOINT ")).findFirst().orElseThrow();
        assertTrue(entrypoint.contains("\"-jar\", \"/opt/scrapy-cluster/scrapy-cluster.jar\""), entrypoint);
        // the JVM reads JAVA_TOOL_OPTIONS before its command line: a heap flag there would override the operator's
        assertFalse(entrypoint.contains("-XX:MaxRAMPercentage") || entrypoint.contains("-Xmx"), entrypoint);
        assertTrue(lines.contains("ENV JAVA_TOOL_OPTIONS=\"-XX:MaxRAMPercentage=75\""), "the heap follows the container's memory limit");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ENV ") && l.contains("SC_PLUGIN_PATH=/opt/scrapy-cluster/plugins")),
                "the plugin folder is read by every service");
    }

    @Test
    void theImageDeclaresPortsHealthAndLabels() {
        assertTrue(lines.contains("EXPOSE 5343 5344"));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("HEALTHCHECK ") && l.endsWith("CMD [\"/opt/scrapy-cluster/bin/healthcheck\"]")));
        assertTrue(lines.contains("COPY --chmod=755 docker/healthcheck bin/healthcheck"));
        assertTrue(RepositoryFiles.read("docker/healthcheck").contains("GET /health/live HTTP/1.1"));
        for (String label : List.of("title", "description", "version")) {
            assertTrue(dockerfile.contains("org.opencontainers.image." + label + "="), label);
        }
        assertEquals(1, lines.stream().filter(l -> l.startsWith("ENV ") && l.contains("METRICS_PORT=5344")).count());
    }
}
