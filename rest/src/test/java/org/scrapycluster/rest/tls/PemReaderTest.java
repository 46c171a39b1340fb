package org.scrapycluster.rest.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.rest.testing.TlsFixtures;

/** Certificates and keys in the PEM forms certificate tools write, read or refused in words naming the file. */
class PemReaderTest {

    @TempDir
    Path dir;

    @Test
    void readsAChainInItsOrderSkippingTheTextAroundTheBlocks() throws Exception {
        Path chain = dir.resolve("chain.pem");
        Files.writeString(chain, "Bag Attributes\n    friendlyName: server\nsubject=CN = 127.0.0.1\n"
                + fixture("server.crt") + "\n" + fixture("ca.crt"));
        List<X509Certificate> certificates = PemReader.certificates("S", chain);
        assertEquals(List.of("CN=127.0.0.1", "CN=Scrapy Cluster gateway test CA"),
                certificates.stream().map(c -> c.getSubjectX500Principal().getName()).toList());
    }

    @Test
    void readsAKeyInItsAlgorithmsOwnFormAsTheSameKeyInPkcs8() throws Exception {
        assertSameKey("server.crt", "server.key", "server-sec1.key"); // EC: SEC 1, as openssl ec writes it
        assertSameKey("rsa.crt", "rsa.key", "rsa-pkcs1.key"); // RSA: PKCS#1, cert-manager's default
    }

    @Test
    void refusesAnEncryptedKeySayingHowToDecryptIt() throws Exception {
        UnusableTlsFile refused = assertThrows(UnusableTlsFile.class,
                () -> PemReader.privateKey("K", file("server-encrypted.key"), publicKey("server.crt")));
        assertEquals("K", refused.setting());
        assertTrue(refused.problem().contains("encrypted") && refused.problem().contains("openssl pkcs8 -topk8 -nocrypt"),
                refused.problem());
    }

    @Test
    void refusesAKeyOfAnotherAlgorithmThanTheCertificates() throws Exception {
        UnusableTlsFile refused = assertThrows(UnusableTlsFile.class,
                () -> PemReader.privateKey("K", file("rsa.key"), publicKey("server.crt")));
        assertTrue(refused.problem().contains("not of the kind of the first certificate's, EC, which must be the gateway's own"),
                refused.problem());
    }

    @Test
    void refusesFilesWithoutWhatTheyShouldHoldNamingThem() throws Exception {
        Path swapped = file("server.key");
        assertProblem("which holds no PEM certificate (BEGIN CERTIFICATE)", () -> PemReader.certificates("C", swapped));
        Path noKey = file("server.crt");
        assertProblem("which holds no PEM private key", () -> PemReader.privateKey("K", noKey, publicKey("server.crt")));
        Path missing = dir.resolve("missing.pem");
        assertProblem("is " + missing + ", which cannot be read: no such file", () -> PemReader.certificates("C", missing));
        assertProblem("which cannot be read: not a regular file", () -> PemReader.certificates("C", dir)); // a folder
        assertProblem("which cannot be read: not a regular file", () -> PemReader.certificates("C", Path.of("/dev/zero")));
        Path fifo = dir.resolve("fifo.pem"); // opened, it would wait for a writer for good
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        assertProblem("which cannot be read: not a regular file", () -> PemReader.certificates("C", fifo));
        Path broken = dir.resolve("broken.pem");
        Files.writeString(broken, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        assertProblem("whose certificate 1 cannot be read", () -> PemReader.certificates("C", broken));
        Path huge = dir.resolve("huge.pem");
        Files.write(huge, new byte[PemReader.MAX_FILE_BYTES + 1]);
        assertProblem("which is larger than a PEM file", () -> PemReader.certificates("C", huge));
    }

    private void assertSameKey(String certificate, String pkcs8, String own) throws Exception {
        PublicKey publicKey = publicKey(certificate);
        PrivateKey expected = PemReader.privateKey("K", file(pkcs8), publicKey);
        PrivateKey read = PemReader.privateKey("K", file(own), publicKey);
        assertEquals(expected.getAlgorithm(), read.getAlgorithm(), own);
        assertEquals(secret(expected), secret(read), own); // SEC 1 may carry the public key too, which PKCS#8 leaves out
    }

    private static BigInteger secret(PrivateKey key) {
        return key instanceof ECPrivateKey ec ? ec.getS() : ((RSAPrivateKey) key).getPrivateExponent();
    }

    private static void assertProblem(String expected, ThrowingRead read) {
        UnusableTlsFile refused = assertThrows(UnusableTlsFile.class, read::run);
        assertTrue(refused.problem().contains(expected), refused.problem());
    }

    private interface ThrowingRead {
        void run() throws Exception;
    }

    private PublicKey publicKey(String certificate) throws UnusableTlsFile {
        return PemReader.certificates("C", file(certificate)).getFirst().getPublicKey();
    }

    private Path file(String name) {
        return TlsFixtures.copy(name, dir.resolve(name));
    }

    private String fixture(String name) throws IOException {
        return Files.readString(file(name));
    }
}
