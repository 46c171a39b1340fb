package org.scrapycluster.rest.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.common.file.UnreadableFile;

/**
 * Certificates and a private key out of PEM files as certificate tools and Kubernetes TLS Secrets hold them. Text
 * around the blocks (openssl's {@code Bag Attributes}) is skipped. A private key is read in PKCS#8
 * ({@code BEGIN PRIVATE KEY}) or in its algorithm's own form, PKCS#1 for RSA ({@code BEGIN RSA PRIVATE KEY},
 * cert-manager's default) and SEC 1 for EC ({@code BEGIN EC PRIVATE KEY}), which is wrapped in PKCS#8 here: the JDK
 * reads PKCS#8 only. An encrypted key is refused with the command that decrypts it.
 */
final class PemReader {

    /** Larger than any certificate chain; a file beyond it is not one (a log, a device). */
    static final int MAX_FILE_BYTES = 1 << 20;

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final int SEQUENCE = 0x30;
    private static final int OCTET_STRING = 0x04;
    /** DER of {@code INTEGER 0}, the version of a PKCS#8 key. */
    private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};

    private PemReader() {
    }

    /** The certificates of {@code file}, in the order it holds them; at least one. */
    static List<X509Certificate> certificates(String setting, Path file) throws UnusableTlsFile {
        List<X509Certificate> certificates = new ArrayList<>();
        Matcher block = BLOCK.matcher(text(setting, file));
        while (block.find()) {
            if (block.group(1).equals("CERTIFICATE")) {
                certificates.add(certificate(setting, file, decode(setting, file, block.group(2)), certificates.size() + 1));
            }
        }
        if (certificates.isEmpty()) {
            throw new UnusableTlsFile(setting, "is " + file + ", which holds no PEM certificate (BEGIN CERTIFICATE)");
        }
        return List.copyOf(certificates);
    }

    /**
     * The first private key of {@code file}, of the algorithm of {@code publicKey} (its certificate's): that names the
     * algorithm of a key not in PKCS#8, and the key factory that reads it.
     */
    static PrivateKey privateKey(String setting, Path file, PublicKey publicKey) throws UnusableTlsFile {
        Matcher block = BLOCK.matcher(text(setting, file));
        while (block.find()) {
            String label = block.group(1);
            if (!label.endsWith("PRIVATE KEY")) {
                continue;
            }
            if (label.equals("ENCRYPTED PRIVATE KEY") || block.group(2).contains("Proc-Type:")) {
                throw new UnusableTlsFile(setting, "is " + file + ", whose private key is encrypted: give it decrypted, in a file"
                        + " only the gateway's user may read (openssl pkcs8 -topk8 -nocrypt -in KEY -out " + file.getFileName() + ")");
            }
            byte[] der = decode(setting, file, block.group(2));
            byte[] pkcs8 = switch (label) {
                case "PRIVATE KEY" -> der;
                case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> pkcs8(der, publicKey);
                default -> throw new UnusableTlsFile(setting, "is " + file + ", whose key (BEGIN " + label
                        + ") is of no form the gateway reads: PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY");
            };
            try {
                return KeyFactory.getInstance(publicKey.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new UnusableTlsFile(setting, "is " + file + ", whose private key is not of the kind of the first"
                        + " certificate's, " + publicKey.getAlgorithm() + ", which must be the gateway's own (" + e.getMessage() + ")");
            }
        }
        throw new UnusableTlsFile(setting, "is " + file + ", which holds no PEM private key (BEGIN PRIVATE KEY)");
    }

    /**
     * A key in its algorithm's own form wrapped in PKCS#8: {@code SEQUENCE { INTEGER 0, algorithm, OCTET STRING key }},
     * the algorithm identifier copied from the certificate's public key ({@code SubjectPublicKeyInfo}), which names it
     * as PKCS#8 does (RSA, or EC with its curve).
     */
    static byte[] pkcs8(byte[] key, PublicKey publicKey) {
        byte[] info = publicKey.getEncoded(); // SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
        int algorithm = headerLength(info, 0);
        ByteArrayOutputStream body = new ByteArrayOutputStream(key.length + 64);
        body.writeBytes(VERSION_0);
        body.write(info, algorithm, headerLength(info, algorithm) + contentLength(info, algorithm));
        body.writeBytes(tlv(OCTET_STRING, key));
        return tlv(SEQUENCE, body.toByteArray());
    }

    private static X509Certificate certificate(String setting, Path file, byte[] der, int number) throws UnusableTlsFile {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException e) {
            throw new UnusableTlsFile(setting, "is " + file + ", whose certificate " + number + " cannot be read: " + e.getMessage());
        }
    }

    private static String text(String setting, Path file) throws UnusableTlsFile {
        byte[] bytes;
        try {
            UnreadableFile.requireRegularFile(file); // a FIFO would hold the gateway's start, or its file checks, for good
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            }
        } catch (IOException e) {
            throw new UnusableTlsFile(setting, "is " + file + ", which cannot be read: " + UnreadableFile.reason(e));
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new UnusableTlsFile(setting, "is " + file + ", which is larger than a PEM file of certificates and keys ("
                    + MAX_FILE_BYTES + " bytes)");
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static byte[] decode(String setting, Path file, String base64) throws UnusableTlsFile {
        try {
            return Base64.getMimeDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new UnusableTlsFile(setting, "is " + file + ", whose PEM block is not Base64: " + e.getMessage());
        }
    }

    /** The length of the tag and length octets of the DER element at {@code at}. */
    private static int headerLength(byte[] der, int at) {
        int first = der[at + 1] & 0xff;
        return first < 0x80 ? 2 : 2 + (first & 0x7f);
    }

    /** The length of the contents of the DER element at {@code at}. */
    private static int contentLength(byte[] der, int at) {
        int first = der[at + 1] & 0xff;
        if (first < 0x80) {
            return first;
        }
        int length = 0;
        for (int i = 0; i < (first & 0x7f); i++) {
            length = (length << 8) | (der[at + 2 + i] & 0xff);
        }
        return length;
    }

    /** The DER element of {@code tag} holding {@code content}. */
    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
