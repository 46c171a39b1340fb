package org.scrapycluster.rest.tls;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.ssl.SslContext;
import org.scrapycluster.common.file.FileStamp;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's HTTPS (docs/security.md "HTTPS on the gateway"): the TLS context made of {@code REST_TLS_CERT_FILE},
 * {@code REST_TLS_KEY_FILE} and {@code REST_TLS_CLIENT_CA_FILE}, read at start, where a file that cannot be used stops
 * the gateway naming its setting, and read again when a check ({@link #refresh()}, every {@link #FILE_CHECK_PERIOD} on
 * the gateway's file thread) finds a file changed: a renewed certificate (cert-manager's, certbot's) is presented to
 * the connections opened from then on, without a restart. Files found unusable when they change (a certificate
 * renewed and its key not yet, a key that cannot sign, an expired certificate) leave the last good ones in force, with a
 * warning, until they change again; a certificate whose validity begins later is taken when it begins. The
 * certificate's expiry is the gauge {@code rest_tls_certificate_expiry_seconds} (Unix time) and is warned of from
 * {@link #EXPIRY_WARNING} before.
 */
public final class GatewayTls implements Supplier<SslContext> {

    /** How often the gateway looks for changes to the files. */
    public static final Duration FILE_CHECK_PERIOD = Duration.ofSeconds(1);
    /** How long before the certificate expires the gateway warns of it, at start and at each reading. */
    static final Duration EXPIRY_WARNING = Duration.ofDays(14);

    private static final Logger LOG = LoggerFactory.getLogger(GatewayTls.class);

    /** What was read, and what the files looked like before they were. */
    private record Loaded(List<FileStamp> stamps, ServerCredentials credentials) {
    }

    private final TlsFiles files;
    private final Clock clock;
    private volatile Loaded loaded;
    /** The files as found last when they could not be used, not to be read again until they change; guarded by this. */
    private List<FileStamp> refused;
    /** The files as found last when their certificate was not valid yet, to be taken once it is; guarded by this. */
    private Loaded early;
    /** The last problem warned of, said once until the files are read well again; guarded by this. */
    private String problem;

    private GatewayTls(TlsFiles files, Loaded loaded, MeterRegistry meters, Clock clock) {
        this.files = files;
        this.clock = clock;
        this.loaded = loaded;
        Gauge.builder("rest.tls.certificate.expiry", this, tls -> tls.loaded.credentials().notAfter().getEpochSecond())
                .baseUnit("seconds").description("When the certificate the gateway presents expires, in Unix time").register(meters);
    }

    /**
     * The HTTPS of the settings, or empty for plain HTTP.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when a file is missing, unreadable, or not what it
     *                                                              should hold, naming its setting
     */
    public static Optional<GatewayTls> from(Settings settings, MeterRegistry meters, Clock clock) {
        Optional<TlsFiles> files = TlsFiles.from(settings);
        if (files.isEmpty()) {
            return Optional.empty();
        }
        try {
            List<FileStamp> stamps = files.get().stamps();
            return Optional.of(new GatewayTls(files.get(), new Loaded(stamps, ServerCredentials.read(files.get())), meters, clock));
        } catch (UnusableTlsFile e) {
            throw settings.invalid(e.setting(), e.problem());
        }
    }

    /** The context for a connection opened now. */
    @Override
    public SslContext get() {
        return loaded.credentials().context();
    }

    /** Whether clients must present a certificate signed by a CA of {@code REST_TLS_CLIENT_CA_FILE}. */
    public boolean requiresClientCertificates() {
        return loaded.credentials().clientCas() > 0;
    }

    /** Logs whose certificate the gateway presents and until when, as it starts listening; warns of an expiry near. */
    public void logCertificate() {
        report("Serving HTTPS with the certificate of ", loaded.credentials());
    }

    /**
     * Looks at the files, and reads them again when they changed since they were last read. A certificate read that has
     * expired is not taken; one whose validity has not begun yet is taken once it has, unless the files change before.
     */
    public synchronized void refresh() {
        List<FileStamp> stamps;
        try {
            stamps = files.stamps(); // before the files are read, so that a change while they are is seen next time
        } catch (UnusableTlsFile e) {
            warn(e);
            return;
        }
        if (stamps.equals(loaded.stamps()) || stamps.equals(refused)) {
            return;
        }
        if (early != null && stamps.equals(early.stamps())) {
            if (!clock.instant().isBefore(early.credentials().notBefore())) {
                adopt(early);
            }
            return;
        }
        early = null;
        try {
            ServerCredentials read = ServerCredentials.read(files);
            Instant now = clock.instant();
            if (!read.notAfter().isAfter(now)) {
                throw new UnusableTlsFile(TlsFiles.CERT, "is " + files.cert() + ", whose certificate (" + read.subject()
                        + ") expired on " + read.notAfter());
            }
            Loaded candidate = new Loaded(stamps, read);
            if (now.isBefore(read.notBefore())) {
                early = candidate;
                warn(new UnusableTlsFile(TlsFiles.CERT, "is " + files.cert() + ", whose certificate (" + read.subject()
                        + ") is valid from " + read.notBefore() + " only, when it is taken"));
            } else {
                adopt(candidate);
            }
        } catch (UnusableTlsFile e) {
            refused = stamps;
            warn(e);
        }
    }

    private void adopt(Loaded candidate) {
        loaded = candidate;
        refused = null;
        early = null;
        problem = null;
        report("The gateway's TLS files changed: serving HTTPS with the certificate of ", candidate.credentials());
    }

    private void warn(UnusableTlsFile unusable) {
        String now = unusable.setting() + " " + unusable.problem();
        if (!now.equals(problem)) {
            problem = now;
            LOG.atWarn().addKeyValue("setting", unusable.setting())
                    .log(now + "; the certificate and key read before stay in force");
        }
    }

    /** Logs {@code serving} followed by the certificate's subject, and warns of its expiry when near. */
    private void report(String serving, ServerCredentials credentials) {
        Instant notAfter = credentials.notAfter();
        LOG.atInfo().addKeyValue("certificate", credentials.subject()).addKeyValue("expires", notAfter.toString())
                .addKeyValue("client_cas", credentials.clientCas())
                .log(serving + credentials.subject() + ", valid until " + notAfter + (credentials.clientCas() > 0
                        ? ", requiring client certificates of " + credentials.clientCas() + " CA certificates" : ""));
        Instant now = clock.instant();
        if (now.isBefore(credentials.notBefore())) {
            LOG.atWarn().addKeyValue("valid_from", credentials.notBefore().toString()).log("The gateway's certificate ("
                    + TlsFiles.CERT + ") is valid from " + credentials.notBefore()
                    + " only: clients that check it refuse the gateway until then");
        } else if (!notAfter.isAfter(now)) {
            LOG.atWarn().addKeyValue("expires", notAfter.toString()).log("The gateway's certificate (" + TlsFiles.CERT
                    + ") expired on " + notAfter + ": clients that check it refuse the gateway");
        } else if (notAfter.isBefore(now.plus(EXPIRY_WARNING))) {
            LOG.atWarn().addKeyValue("expires", notAfter.toString()).log("The gateway's certificate (" + TlsFiles.CERT
                    + ") expires on " + notAfter + ", in less than " + EXPIRY_WARNING.toDays() + " days");
        }
    }
}
