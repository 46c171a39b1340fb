package org.scrapycluster.crawler.links;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a response is to the link spider, decided as Scrapy 1.5 picks the class of a response
 * ({@code responsetypes.from_args}, called with the headers, the URL without its fragment and the body), in this order:
 * <ol>
 *   <li>the {@code Content-Type} (its last value), up to {@code ;}, stripped, in lower case: the HTML, XML, JSON and
 *       JavaScript types Scrapy names, or any {@code text/…};</li>
 *   <li>failing that, the file name of {@code Content-Disposition} ({@code attachment; filename="a.html"}), then the
 *       URL, by their extension (Python's {@code posixpath.splitext} of the whole string, so {@code /a.xml?x=1} has
 *       none): the extensions Python's {@code mimetypes} with Scrapy's {@code mime.types} map to such a type (a
 *       compressed name such as {@code a.html.gz} maps to none);</li>
 *   <li>failing that, the first {@value #SNIFFED_BYTES} bytes of the body ({@code from_body}): a control character
 *       other than NUL, tab, LF and CR makes it binary; else {@code <html>} in any case makes it HTML, else
 *       {@code <?xml} XML, else it is text.</li>
 * </ol>
 * So HTML served as {@code application/octet-stream}, or with no or an unknown type, is still read for links, and a
 * PDF is not unless its first bytes hold no such control character (then Scrapy reads it as text too). The
 * Content-Encoding plays no part: the body is classified as decoded, as after Scrapy's compression middleware. Costs a
 * map look-up for most pages; the body is read (never copied) only when the headers and the URL do not decide.
 */
public enum ResponseKind {

    /** HTML or other text (Scrapy's {@code HtmlResponse} and {@code TextResponse}, both read by the HTML parser). */
    HTML,
    /** XML ({@code XmlResponse}: RSS, Atom, {@code text/xml}), read by lxml's XML parser, to which CDATA is text. */
    XML,
    /** Anything else (Scrapy's plain {@code Response}): no text, so no links. */
    BINARY;

    /** How much of the body is looked at when the headers and the URL do not decide, as much as Scrapy's {@code from_body}. */
    static final int SNIFFED_BYTES = 5000;

    /** The content types Scrapy's {@code ResponseTypes.CLASSES} names; any other {@code text/…} is text too. */
    private static final Map<String, ResponseKind> TYPES = Map.ofEntries(Map.entry("text/html", HTML),
            Map.entry("application/xhtml+xml", HTML), Map.entry("application/vnd.wap.xhtml+xml", HTML),
            Map.entry("application/json", HTML), Map.entry("application/x-json", HTML),
            Map.entry("application/json-amazonui-streaming", HTML), Map.entry("application/javascript", HTML),
            Map.entry("application/x-javascript", HTML), Map.entry("application/atom+xml", XML),
            Map.entry("application/rdf+xml", XML), Map.entry("application/rss+xml", XML), Map.entry("application/xml", XML),
            Map.entry("text/xml", XML));

    /**
     * The extensions whose type (Python 3.6's {@code mimetypes} defaults overridden by Scrapy 1.5's {@code mime.types})
     * is one of {@link #TYPES} or {@code text/…}, lower case with their dot. Every other extension leaves the decision to
     * the body.
     */
    private static final Map<String, ResponseKind> EXTENSIONS = extensions();

    private static final byte[] HTML_TAG = {'<', 'h', 't', 'm', 'l', '>'};
    private static final byte[] XML_DECLARATION = {'<', '?', 'x', 'm', 'l'};

    /** Whether links can be read from such a response. */
    public boolean isText() {
        return this != BINARY;
    }

    /**
     * The kind of a response.
     *
     * @param contentType        the last {@code Content-Type} value, or null when there is none
     * @param contentDisposition the last {@code Content-Disposition} value, or null when there is none
     * @param url                the response URL (the request's without its fragment)
     * @param body               the body as decoded; only its first {@value #SNIFFED_BYTES} bytes are read, and only
     *                           when the headers and the URL do not decide
     */
    public static ResponseKind of(String contentType, String contentDisposition, String url, byte[] body) {
        ResponseKind kind = contentType == null ? null : ofMimeType(mimeType(contentType));
        if (kind == null && contentDisposition != null) {
            kind = ofFileName(fileName(contentDisposition));
        }
        if (kind == null) {
            kind = ofFileName(url);
        }
        return kind != null ? kind : ofBody(body);
    }

    /** Scrapy's {@code content_type.split(';')[0].strip().lower()}. */
    private static String mimeType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return PythonStrip.whitespace(semicolon < 0 ? contentType : contentType.substring(0, semicolon)).toLowerCase(Locale.ROOT);
    }

    /** {@code from_mimetype}: null for a type Scrapy builds a plain {@code Response} of. */
    private static ResponseKind ofMimeType(String mimeType) {
        ResponseKind kind = TYPES.get(mimeType);
        if (kind != null) {
            return kind;
        }
        int slash = mimeType.indexOf('/');
        return (slash < 0 ? mimeType : mimeType.substring(0, slash)).equals("text") ? HTML : null;
    }

    /**
     * Scrapy's {@code split(';')[1].split('=')[1].strip('"\'')} of a {@code Content-Disposition}, or null when it has
     * no second part or that has no {@code =}.
     */
    private static String fileName(String contentDisposition) {
        int semicolon = contentDisposition.indexOf(';');
        if (semicolon < 0) {
            return null;
        }
        int partEnd = contentDisposition.indexOf(';', semicolon + 1);
        String part = contentDisposition.substring(semicolon + 1, partEnd < 0 ? contentDisposition.length() : partEnd);
        int equals = part.indexOf('=');
        if (equals < 0) {
            return null;
        }
        int valueEnd = part.indexOf('=', equals + 1);
        return PythonStrip.chars(part.substring(equals + 1, valueEnd < 0 ? part.length() : valueEnd), "\"'");
    }

    /** {@code from_filename}: by the extension of {@code name}, null when it decides nothing. */
    private static ResponseKind ofFileName(String name) {
        return name == null ? null : EXTENSIONS.get(LinkExtractor.extension(name));
    }

    /** {@code from_body}: binary when a control character shows up early, else HTML, XML or text by what it holds. */
    private static ResponseKind ofBody(byte[] body) {
        int end = Math.min(body.length, SNIFFED_BYTES);
        for (int i = 0; i < end; i++) {
            byte b = body[i];
            if (b >= 1 && b < ' ' && b != '\t' && b != '\n' && b != '\r') {
                return BINARY;
            }
        }
        if (contains(body, end, HTML_TAG)) {
            return HTML;
        }
        return contains(body, end, XML_DECLARATION) ? XML : HTML;
    }

    /** Whether {@code body[0, end)} holds {@code lower} with ASCII letters in either case, as {@code bytes.lower()} compares. */
    private static boolean contains(byte[] body, int end, byte[] lower) {
        for (int at = 0; at + lower.length <= end; at++) {
            int i = 0;
            while (i < lower.length && asciiLower(body[at + i]) == lower[i]) {
                i++;
            }
            if (i == lower.length) {
                return true;
            }
        }
        return false;
    }

    private static byte asciiLower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + ('a' - 'A')) : b;
    }

    private static Map<String, ResponseKind> extensions() {
        Map<String, ResponseKind> extensions = new HashMap<>();
        add(extensions, HTML, "htm html shtml xht xhtml");
        add(extensions, XML, "atom rdf rss wsdl xml xpdl xsd xsl");
        // text/…, JSON and JavaScript: read as HTML, as Scrapy reads a TextResponse
        add(extensions, HTML, "323 asc bib boo brf c c++ cc cls cpp csh css csv cxx d diff etx gcd h h++ hh hpp hs htc hxx "
                + "ics icz jad java js json ksh lhs ltx mml moc p pas patch pl pm pot py rtx scala sct sgm sgml sh sty tcl "
                + "tex text tk tm ts tsv txt uls vcf vcs wml wmls wsc");
        return Map.copyOf(extensions);
    }

    private static void add(Map<String, ResponseKind> extensions, ResponseKind kind, String names) {
        for (String name : names.split(" ")) {
            extensions.put("." + name, kind);
        }
    }
}
