package org.scrapycluster.common.zookeeper;

import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.scrapycluster.common.file.TlsFileSettings;
import org.scrapycluster.common.settings.Settings;

/**
 * How a client speaks TLS to ZooKeeper's secure client port ({@code ZOOKEEPER_TLS}, docs/operations.md "ZooKeeper over
 * TLS"): whose certificates it trusts, the JVM's trust store or the CAs of {@code ZOOKEEPER_TLS_CA_FILE}, and, for a
 * ZooKeeper that asks clients for a certificate ({@code ssl.clientAuth=need}), the certificate and key it presents
 * ({@code ZOOKEEPER_TLS_KEYSTORE_FILE}). ZooKeeper's own client checks the server's host name against its certificate.
 *
 * @param caFile       PEM file of the CA certificates to trust, or {@code null} for the JVM's trust store
 * @param keyStoreFile PEM file of the client's private key and certificate together, as ZooKeeper's PEM key stores
 *                     hold them, or {@code null} for none
 */
public record ZooKeeperTls(String caFile, String keyStoreFile) {

    private static final String[] FILE_SETTINGS = {"ZOOKEEPER_TLS_CA_FILE", "ZOOKEEPER_TLS_KEYSTORE_FILE"};
    private static final String PEM = "PEM";

    /**
     * The TLS of a service's settings, or {@code null} when {@code ZOOKEEPER_TLS} is false; a file that cannot be read,
     * or one named without {@code ZOOKEEPER_TLS}, stops the service with a
     * {@link org.scrapycluster.common.settings.SettingsException} naming its setting.
     */
    static ZooKeeperTls from(Settings settings) {
        String[] files = TlsFileSettings.read(settings, "ZOOKEEPER_TLS", "ZooKeeper", FILE_SETTINGS);
        return settings.getBoolean("ZOOKEEPER_TLS") ? new ZooKeeperTls(files[0], files[1]) : null;
    }

    /** Sets {@code config} to connect with TLS, through ZooKeeper's Netty client (its only one that speaks TLS). */
    void applyTo(ZKClientConfig config) {
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
        try (ClientX509Util names = new ClientX509Util()) {
            if (caFile != null) {
                config.setProperty(names.getSslTruststoreLocationProperty(), caFile);
                config.setProperty(names.getSslTruststoreTypeProperty(), PEM);
            }
            if (keyStoreFile != null) {
                config.setProperty(names.getSslKeystoreLocationProperty(), keyStoreFile);
                config.setProperty(names.getSslKeystoreTypeProperty(), PEM);
            }
        }
    }
}
