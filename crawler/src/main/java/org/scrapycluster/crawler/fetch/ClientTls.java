package org.scrapycluster.crawler.fetch;

import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SSLException;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

/** The TLS settings of a fetcher: the JVM's trust anchors or the configured ones, host names verified, or trust-all. */
final class ClientTls {

    private ClientTls() {
    }

    static SslContext of(FetcherConfig config) {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
        if (config.trustAllCertificates()) {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        } else {
            List<X509Certificate> anchors = config.trustedCertificates();
            if (!anchors.isEmpty()) {
                builder.trustManager(anchors);
            }
            builder.endpointIdentificationAlgorithm("HTTPS");
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS for the fetcher", e);
        }
    }
}
