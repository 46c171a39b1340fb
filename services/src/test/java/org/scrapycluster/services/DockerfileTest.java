package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertTrue(lines.contains("COPY --chmod=755 docker/entrypoint bin/entrypoint"));
        assertTrue(lines.contains("ENTRYPOINT [\"/opt/scrapy-cluster/bin/entrypoint\"]"));
        String entrypoint = RepositoryFiles.read("docker/entrypoint");
        // the JVM reads JAVA_TOOL_OPTIONS before its command line: a heap flag there would override the operator's
        assertFalse(entrypoint.contains("-XX:MaxRAMPercentage") || entrypoint.contains("-Xmx"), entrypoint);
        assertTrue(entrypoint.contains("/opt/scrapy-cluster/scrapy-cluster.jar"), entrypoint);
        assertTrue(lines.contains("ENV JAVA_TOOL_OPTIONS=\"-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError\""),
                "the heap follows the container's memory limit, and a JVM out of it ends for the restart policy");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ENV ") && l.contains("SC_PLUGIN_PATH=/opt/scrapy-cluster/plugins")),
                "the plugin folder is read by every service");
    }

    /**
     * The entrypoint, run with a stand-in {@code java} on the {@code PATH} that says its arguments and the policy it
     * runs under: the jar with the container's arguments, under {@code SCHED_BATCH} unless {@code SC_SCHED_BATCH=off}.
     */
    @Test
    void theEntrypointRunsTheJarUnderTheBatchPolicyUnlessToldNotTo(@TempDir Path bin) throws Exception {
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/bash\necho \"$*\"\nchrt -p $$ | head -n 1 | awk '{print $NF}'\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        String arguments = "--enable-native-access=ALL-UNNAMED -jar /opt/scrapy-cluster/scrapy-cluster.jar crawler -ll DEBUG";

        String entrypoint = RepositoryFiles.root().resolve("docker/entrypoint").toString();
        assertEquals(List.of(arguments, "SCHED_BATCH"), run(bin, Map.of(), entrypoint, "crawler", "-ll", "DEBUG"));
        String inherited = run(bin, Map.of(), java.toString()).getLast(); // the policy a child of this JVM runs under
        assertEquals(List.of(arguments, inherited), run(bin, Map.of("SC_SCHED_BATCH", "off"), entrypoint, "crawler", "-ll", "DEBUG"));
    }

    /** The lines {@code command} prints, run with {@code bin} first on its {@code PATH}. */
    private static List<String> run(Path bin, Map<String, String> environment, String... command) throws Exception {
        ProcessBuilder process = new ProcessBuilder(command).redirectErrorStream(true);
        process.environment().put("PATH", bin + ":/usr/bin:/bin");
        process.environment().putAll(environment);
        Process run = process.start();
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, run.waitFor(), output);
        return output.lines().toList();
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
