package org.scrapycluster.embedded.origin;

import java.nio.charset.Charset;

/**
 * A page in a legacy encoding, for charset detection: {@code /non-utf8?charset=iso-8859-7&declare=header}.
 * {@code charset} is {@code iso-8859-7} (Greek, {@link #GREEK}) or {@code windows-1251} (Cyrillic,
 * {@link #CYRILLIC}); {@code declare} says where the encoding is named: {@code header} (Content-Type
 * only), {@code meta} ({@code <meta charset>} only), {@code http-equiv} (a {@code <meta http-equiv>} only)
 * or {@code none}.
 */
public final class NonUtf8Page implements Route {

    public static final String PATH = "/non-utf8";

    /** The Greek text of the ISO-8859-7 page. */
    public static final String GREEK = "αυτό είναι ένα τεστ";

    /** The Russian text of the windows-1251 page. */
    public static final String CYRILLIC = "это проверка кодировки";

    /** The path and query of the page in {@code charset}, declared {@code where}. */
    public static String path(String charset, String where) {
        return PATH + "?charset=" + charset + "&declare=" + where;
    }

    @Override
    public void serve(Exchange exchange) {
        String charset = exchange.param("charset") == null ? "iso-8859-7" : exchange.param("charset");
        String text = switch (charset) {
            case "iso-8859-7" -> GREEK;
            case "windows-1251" -> CYRILLIC;
            default -> throw new IllegalArgumentException("charset is iso-8859-7 or windows-1251, not " + charset);
        };
        String declare = exchange.param("declare") == null ? "header" : exchange.param("declare");
        String meta = switch (declare) {
            case "header", "none" -> "";
            case "meta" -> "<meta charset=\"" + charset + "\">";
            case "http-equiv" -> "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=" + charset + "\">";
            default -> throw new IllegalArgumentException("declare is header, meta, http-equiv or none, not " + declare);
        };
        String contentType = declare.equals("header") ? "text/html; charset=" + charset : "text/html";
        String html = "<!DOCTYPE html>\n<html><head>" + meta + "<title>" + text + "</title></head><body><p>" + text
                + "</p></body></html>\n";
        exchange.send(200, html.getBytes(Charset.forName(charset)), "Content-Type", contentType);
    }
}
