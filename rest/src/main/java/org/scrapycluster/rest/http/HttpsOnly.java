package org.scrapycluster.rest.http;

import java.security.cert.X509Certificate;

import javax.net.ssl.SSLPeerUnverifiedException;

import io.micrometer.core.instrument.Counter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/**
 * The first handler of a connection to a gateway that serves HTTPS, which looks at the client's first bytes: a TLS
 * handshake puts an {@link SslHandler} in its place, anything else (a plain HTTP request sent to the HTTPS port) goes
 * on to the HTTP decoder unencrypted, and {@link Admission} refuses its request with {@link Refusal#PLAIN_HTTP}, so that
 * the client reads why in words instead of an empty reply. A failed handshake (a client that does not trust the
 * certificate, or presents none where one is required) is counted in {@code rest_tls_handshakes_failed_total}. Its
 * static methods tell the handlers after it where a connection stands with TLS: encrypted, still in its handshake, the
 * subject of its client's certificate; and drop one whose client takes nothing.
 */
final class HttpsOnly extends OptionalSslHandler {

    private final Counter failedHandshakes;

    /** @param context the context of the connection, the one in force as it opens */
    HttpsOnly(SslContext context, Counter failedHandshakes) {
        super(context);
        this.failedHandshakes = failedHandshakes;
    }

    /** Whether the connection of {@code ctx} speaks TLS: an {@link SslHandler} took the place of this handler. */
    static boolean encrypted(ChannelHandlerContext ctx) {
        return ctx.pipeline().get(SslHandler.class) != null;
    }

    /**
     * Whether the connection of {@code ctx} is on a gateway serving HTTPS and has not finished its TLS handshake: no
     * answer can reach its client yet (one written would wait behind the handshake, or go out unencrypted before it).
     */
    static boolean handshaking(ChannelHandlerContext ctx) {
        if (ctx.pipeline().get(HttpsOnly.class) != null) {
            return true; // not a byte from the client yet
        }
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        return tls != null && !tls.handshakeFuture().isDone();
    }

    /**
     * The subject of the certificate the client of {@code ctx} presented ({@code REST_TLS_CLIENT_CA_FILE}), or null for
     * a connection without one.
     */
    static String clientSubject(ChannelHandlerContext ctx) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) {
            return null;
        }
        try {
            return tls.engine().getSession().getPeerCertificates()[0] instanceof X509Certificate certificate
                    ? certificate.getSubjectX500Principal().getName() : null;
        } catch (SSLPeerUnverifiedException none) {
            return null;
        }
    }

    /**
     * Closes the connection of {@code ctx} at once, over TLS without the {@code close_notify} a client that takes
     * nothing would never read (TLS would wait for it, then warn).
     */
    static void abandon(ChannelHandlerContext ctx) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls != null) {
            ctx.pipeline().remove(tls);
        }
        ctx.channel().close();
    }

    @Override
    protected SslHandler newSslHandler(ChannelHandlerContext ctx, SslContext context) {
        SslHandler handler = super.newSslHandler(ctx, context);
        handler.handshakeFuture().addListener(done -> {
            if (!done.isSuccess()) {
                failedHandshakes.increment();
            }
        });
        return handler;
    }

    @Override
    protected String newSslHandlerName() {
        return "tls";
    }
}
