package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;

/**
 * A page listing {@code links} links into its own host, {@code <a href="/farm/item/N">item N</a>} one a line, streamed in
 * pieces of a thousand links without holding the page in memory: a site map, or a spider trap, as large as a crawler's
 * download limit lets through. {@code /farm?links=200000}.
 */
public final class LinkFarm implements Route {

    public static final String PATH = "/farm";

    private static final int LINKS_A_PIECE = 1000;

    /** The path and query of a page of {@code links} links. */
    public static String path(int links) {
        return PATH + "?links=" + links;
    }

    @Override
    public void serve(Exchange exchange) {
        long links = exchange.longParam("links", 1000);
        exchange.startBody(200, -1, "Content-Type", "text/html; charset=utf-8");
        exchange.writeBody(bytes("<html><body>\n"), () -> sendFrom(exchange, 0, links));
    }

    private static void sendFrom(Exchange exchange, long from, long links) {
        if (!exchange.isOpen()) {
            return;
        }
        if (from == links) {
            exchange.writeBody(bytes("</body></html>\n"), exchange::endBody);
            return;
        }
        long to = Math.min(links, from + LINKS_A_PIECE);
        StringBuilder piece = new StringBuilder((int) (to - from) * 40);
        for (long link = from; link < to; link++) {
            piece.append("<a href=\"/farm/item/").append(link).append("\">item ").append(link).append("</a>\n");
        }
        exchange.writeBody(bytes(piece.toString()), () -> sendFrom(exchange, to, links));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
