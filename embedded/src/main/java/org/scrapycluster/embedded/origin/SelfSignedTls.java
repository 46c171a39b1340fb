package org.scrapycluster.embedded.origin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * A throw-away self-signed certificate for the test origin's HTTPS listeners, made with the JDK's own
 * {@code keytool} (no extra library), valid for {@code localhost}, 127.0.0.1 and every test domain address.
 */
final class SelfSignedTls {

    private static final String ALIAS = "origin";
    private static final char[] PASSWORD = "test-origin".toCharArray();

    private final SslContext serverContext;
    private final X509Certificate certificate;

    private SelfSignedTls(SslContext serverContext, X509Certificate certificate) {
        this.serverContext = serverContext;
        this.certificate = certificate;
    }

    /** A certificate for the addresses of test domains {@code first} to {@code first + domains - 1}. */
    static SelfSignedTls create(int first, int domains) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("test-origin-tls");
            Path store = dir.resolve("origin.p12");
            runKeytool(store, first, domains);
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keyStore.load(in, PASSWORD);
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore, PASSWORD);
            SslContext context = SslContextBuilder.forServer(keys).sslProvider(SslProvider.JDK).build();
            return new SelfSignedTls(context, (X509Certificate) keyStore.getCertificate(ALIAS));
        } catch (SSLException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for the test origin", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the test origin's key store", e);
        } finally {
            deleteQuietly(dir);
        }
    }

    SslContext serverContext() {
        return serverContext;
    }

    X509Certificate certificate() {
        return certificate;
    }

    private static void runKeytool(Path store, int first, int domains) throws IOException {
        StringBuilder names = new StringBuilder("SAN=dns:localhost,ip:127.0.0.1");
        for (int i = first; i < first + domains; i++) {
            names.append(",ip:").append(LoopbackAddresses.of(i));
        }
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(keytool.toString(), "-genkeypair", "-alias", ALIAS,
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=scrapy-cluster test origin",
                "-ext", names.toString(), "-validity", "7", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)));
        Path output = store.resolveSibling("keytool.out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed (" + process.exitValue() + "): "
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the test origin's certificate", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
