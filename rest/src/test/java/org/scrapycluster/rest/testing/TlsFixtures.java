package org.scrapycluster.rest.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The test CA and certificates of {@code tls/} (its README says how they were made), as files and as the TLS
 * contexts of clients.
 */
public final class TlsFixtures {

    private static final char[] STORE_PASSWORD = "test".toCharArray();

    private TlsFixtures() {
    }

    /** Copies the fixture {@code name} to {@code file} (replacing it: a certificate renewed in place). */
    public static Path copy(String name, Path file) {
        try (InputStream in = TlsFixtures.class.getResourceAsStream("/tls/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture tls/" + name);
            }
            Path written = Files.createTempFile(file.toAbsolutePath().getParent(), "fixture", ".tmp");
            Files.copy(in, written, StandardCopyOption.REPLACE_EXISTING);
            return Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client context trusting the test CA only. */
    public static SSLContext trustingTestCa() {
        return client(false);
    }

    /** A client context trusting the test CA and presenting the test client certificate. */
    public static SSLContext withClientCertificate() {
        return client(true);
    }

    /** The subject of the certificate a gateway at {@code base} presents to a connection opened now. */
    public static String presentedSubject(URI base) throws IOException {
        try (SSLSocket socket = (SSLSocket) trustingTestCa().getSocketFactory()
                .createSocket(InetAddress.getByName(base.getHost()), base.getPort())) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    private static SSLContext client(boolean presentCertificate) {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", certificate("ca.crt"));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            KeyManagerFactory keys = null;
            if (presentCertificate) {
                KeyStore own = KeyStore.getInstance("PKCS12");
                own.load(null, null);
                own.setKeyEntry("client", privateKey("client.key"), STORE_PASSWORD, new Certificate[] {certificate("client.crt")});
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(own, STORE_PASSWORD);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Certificate certificate(String name) throws IOException, GeneralSecurityException {
        try (InputStream in = TlsFixtures.class.getResourceAsStream("/tls/" + name)) {
            return CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** An EC key of the fixtures, in PKCS#8. */
    private static PrivateKey privateKey(String name) throws IOException, GeneralSecurityException {
        try (InputStream in = TlsFixtures.class.getResourceAsStream("/tls/" + name)) {
            String pem = new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("-----[A-Z ]+-----", "");
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem)));
        }
    }
}
