package org.scrapycluster.embedded.origin;

/**
 * Redirects, for redirect handling and limits:
 * <ul>
 *   <li>{@code /redirect?status=301&to=<target>} — one redirect ({@code status} 301, 302, 303, 307 or 308;
 *       302 by default) to {@code to}, which may be relative or absolute;</li>
 *   <li>{@code /redirect/chain/<n>} — {@code n} hops through {@code /redirect/chain/n-1} … to
 *       {@code /redirect/chain/0}, which answers 200;</li>
 *   <li>{@code /redirect/loop/a} and {@code /redirect/loop/b} — redirect to each other for ever.</li>
 * </ul>
 */
public final class RedirectRoute implements Route {

    public static final String PATH = "/redirect";
    public static final String LOOP_PATH = PATH + "/loop/a";
    private static final String CHAIN = PATH + "/chain/";

    /** The path of a chain of {@code hops} redirects ending in a 200. */
    public static String chain(int hops) {
        return CHAIN + hops;
    }

    /** The path and query of one redirect with {@code status} to {@code target} (not escaped: keep it simple). */
    public static String to(int status, String target) {
        return PATH + "?status=" + status + "&to=" + target;
    }

    @Override
    public void serve(Exchange exchange) {
        String path = exchange.path();
        if (path.equals(PATH)) {
            String target = exchange.param("to");
            if (target == null) {
                throw new IllegalArgumentException("say where to: /redirect?to=/p/0");
            }
            redirect(exchange, (int) exchange.longParam("status", 302), target);
        } else if (path.startsWith(CHAIN)) {
            int hops = Integer.parseInt(path.substring(CHAIN.length()));
            if (hops <= 0) {
                exchange.sendText(200, "text/html; charset=utf-8", "<html><body>end of the chain</body></html>");
            } else {
                redirect(exchange, 302, CHAIN + (hops - 1));
            }
        } else if (path.equals(PATH + "/loop/a")) {
            redirect(exchange, 302, PATH + "/loop/b");
        } else if (path.equals(PATH + "/loop/b")) {
            redirect(exchange, 302, PATH + "/loop/a");
        } else {
            exchange.sendText(404, "text/plain", "no such redirect");
        }
    }

    private static void redirect(Exchange exchange, int status, String target) {
        if (status < 300 || status > 399) {
            throw new IllegalArgumentException("not a redirect status: " + status);
        }
        exchange.sendText(status, "text/html; charset=utf-8", "<a href=\"" + target + "\">moved</a>", "Location", target);
    }
}
