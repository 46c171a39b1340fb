package org.scrapycluster.rest.tls;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.time.Instant;
import java.util.List;

import javax.net.ssl.SSLException;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * What the gateway's HTTPS is made of at one time: the certificate it presents, checked to belong to the private key
 * read with it, and the TLS context built of them and of the client CAs, if any.
 *
 * @param certificate the gateway's own certificate, the first of its chain
 * @param clientCas   how many CA certificates sign the client certificates required; 0 when none is asked for
 * @param context     the context new connections are made with
 */
record ServerCredentials(X509Certificate certificate, int clientCas, SslContext context) {

    private static final byte[] PROBE = "scrapy-cluster".getBytes(StandardCharsets.US_ASCII);

    /** Reads and checks {@code files} and builds their context. */
    static ServerCredentials read(TlsFiles files) throws UnusableTlsFile {
        List<X509Certificate> chain = PemReader.certificates(TlsFiles.CERT, files.cert());
        X509Certificate certificate = chain.getFirst();
        PrivateKey key = PemReader.privateKey(TlsFiles.KEY, files.key(), certificate.getPublicKey());
        checkPair(key, certificate, files);
        List<X509Certificate> clientCas = files.clientCa() == null ? List.of()
                : PemReader.certificates(TlsFiles.CLIENT_CA, files.clientCa());
        SslContextBuilder builder = SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new)).sslProvider(SslProvider.JDK);
        if (!clientCas.isEmpty()) {
            builder.trustManager(clientCas).clientAuth(ClientAuth.REQUIRE);
        }
        try {
            return new ServerCredentials(certificate, clientCas.size(), builder.build());
        } catch (SSLException e) {
            throw new UnusableTlsFile(TlsFiles.CERT, "is " + files.cert() + ", with which no TLS context can be made: " + e.getMessage());
        }
    }

    /** When the certificate becomes valid. */
    Instant notBefore() {
        return certificate.getNotBefore().toInstant();
    }

    /** When the certificate expires. */
    Instant notAfter() {
        return certificate.getNotAfter().toInstant();
    }

    /** Whose certificate it is: its subject's distinguished name. */
    String subject() {
        return subject(certificate);
    }

    private static String subject(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName();
    }

    /**
     * Checks that {@code key} signs what the certificate's public key verifies: a TLS server proves that it holds the
     * certificate's key by signing with it, so a key that cannot sign here (X25519, a curve the JDK left out) would
     * fail every handshake.
     */
    private static void checkPair(PrivateKey key, X509Certificate certificate, TlsFiles files) throws UnusableTlsFile {
        byte[] signed;
        try {
            Signature signer = signature(key);
            signer.initSign(key);
            signer.update(PROBE);
            signed = signer.sign();
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new UnusableTlsFile(TlsFiles.KEY, "is " + files.key() + ", whose " + key.getAlgorithm()
                    + " key cannot sign here, as a TLS server's key must (" + e.getMessage() + ")");
        }
        boolean verified;
        try {
            Signature verifier = signature(key);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(PROBE);
            verified = verifier.verify(signed);
        } catch (GeneralSecurityException e) {
            verified = false;
        }
        if (!verified) {
            throw new UnusableTlsFile(TlsFiles.KEY, "is " + files.key() + ", whose private key is not the key of the first"
                    + " certificate in " + files.cert() + " (" + subject(certificate) + "), which must be the gateway's own");
        }
    }

    private static Signature signature(PrivateKey key) throws GeneralSecurityException {
        if (key.getAlgorithm().equals("RSASSA-PSS")) {
            Signature pss = Signature.getInstance("RSASSA-PSS");
            AlgorithmParameterSpec restricted = ((RSAKey) key).getParams();
            pss.setParameter(restricted != null ? restricted : new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
            return pss;
        }
        return Signature.getInstance(switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm(); // EdDSA, Ed25519, Ed448 sign under their own names; others (XDH) cannot sign
        });
    }
}
