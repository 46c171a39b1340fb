package org.scrapycluster.crawler.fetch;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.common.bytes.BytePrefix;
import org.scrapycluster.common.python.PythonRegex;

/**
 * The encoding of a response body, found the way Scrapy 1.5's {@code TextResponse} finds it, so the crawl
 * result's {@code encoding} field carries the same value:
 * <ol>
 *   <li>the {@code charset} of the (last) Content-Type header;</li>
 *   <li>else a {@code <meta charset>}, a {@code <meta http-equiv="Content-Type" content="…; charset=…">} or an
 *       XML declaration's {@code encoding} in the first 4096 bytes, before any {@code <body};</li>
 *   <li>else a byte order mark (UTF-8, UTF-16, UTF-32);</li>
 *   <li>else {@code cp1252} for a body that is pure ASCII, {@code utf-8} for one that is valid UTF-8, and
 *       {@code cp1252} otherwise.</li>
 * </ol>
 * Labels resolve as w3lib resolves them, to Python codec names: {@code ISO-8859-1}, {@code latin1} and
 * {@code ascii} are reported as {@code cp1252}, {@code iso-8859-7} as {@code iso8859-7}, {@code windows-1251}
 * as {@code cp1251}, {@code gbk} as {@code gb18030}. A label that names no text encoding is passed over.
 * Two differences (docs/differences.md "A page's encoding"): a label of a Python codec that Java cannot decode
 * ({@code utf-7}) or that decodes no text ({@code base64}) is passed over too; and where Scrapy's last guess fails
 * (bytes that even cp1252 leaves undefined) it reports {@code ascii}, which then cannot decode the body; this
 * reports {@code cp1252}, which can.
 */
public final class EncodingDetector {

    /** How much of the body the declaration scan reads, as w3lib. */
    static final int DECLARATION_SCAN_BYTES = 4096;

    /** w3lib's pattern, which Python runs on the header as text: its {@code \\w} takes letters and digits of any script. */
    private static final Pattern HEADER_CHARSET = Pattern.compile("charset=([" + PythonRegex.WORD_CHARS + "-]+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BODY_DECLARATION = Pattern.compile(bodyDeclaration(), Pattern.CASE_INSENSITIVE);

    private static final DetectedEncoding UTF_8 = PythonCodecs.byPythonName("utf-8");
    private static final DetectedEncoding CP1252 = PythonCodecs.byPythonName("cp1252");
    /** The characters {@link #isUtf8} decodes at a time. */
    private static final int UTF8_CHECK_CHARS = 4096;

    private EncodingDetector() {
    }

    /**
     * The encoding of {@code body}.
     *
     * @param contentType the last Content-Type header of the response, or null
     */
    public static DetectedEncoding detect(String contentType, byte[] body) {
        return fromContentType(contentType)
                .or(() -> declaredInBody(body))
                .or(() -> fromByteOrderMark(body))
                .orElseGet(() -> guess(body));
    }

    /** The encoding named by a Content-Type header value's {@code charset}, when known. */
    public static Optional<DetectedEncoding> fromContentType(String contentType) {
        if (contentType == null) {
            return Optional.empty();
        }
        Matcher matcher = HEADER_CHARSET.matcher(contentType);
        return matcher.find() ? PythonCodecs.resolve(matcher.group(1)) : Optional.empty();
    }

    /** The encoding a page declares in a meta tag or an XML declaration in its first 4096 bytes, when known. */
    public static Optional<DetectedEncoding> declaredInBody(byte[] body) {
        String head = new String(body, 0, Math.min(body.length, DECLARATION_SCAN_BYTES), StandardCharsets.ISO_8859_1);
        Matcher matcher = BODY_DECLARATION.matcher(head);
        if (!matcher.find()) {
            return Optional.empty();
        }
        for (String group : new String[] {"charset", "charset2", "xmlcharset"}) {
            String label = matcher.group(group);
            if (label != null) {
                return PythonCodecs.resolve(label);
            }
        }
        return Optional.empty();
    }

    static Optional<DetectedEncoding> fromByteOrderMark(byte[] body) {
        if (BytePrefix.UTF_32_BE_MARK.starts(body)) {
            return Optional.of(PythonCodecs.byPythonName("utf-32-be"));
        }
        if (BytePrefix.UTF_32_LE_MARK.starts(body)) {
            return Optional.of(PythonCodecs.byPythonName("utf-32-le"));
        }
        if (BytePrefix.UTF_16_BE_MARK.starts(body)) {
            return Optional.of(PythonCodecs.byPythonName("utf-16-be"));
        }
        if (BytePrefix.UTF_16_LE_MARK.starts(body)) {
            return Optional.of(PythonCodecs.byPythonName("utf-16-le"));
        }
        if (BytePrefix.UTF_8_MARK.starts(body)) {
            return Optional.of(UTF_8);
        }
        return Optional.empty();
    }

    private static DetectedEncoding guess(byte[] body) {
        boolean ascii = true;
        for (byte b : body) {
            if (b < 0) {
                ascii = false;
                break;
            }
        }
        return !ascii && isUtf8(body) ? UTF_8 : CP1252;
    }

    /**
     * Whether {@code bytes} are valid UTF-8 (ASCII included): decoded a few thousand characters at a time into one small
     * buffer, so that a body of many megabytes costs no text of its size on the event loop that reads it.
     */
    public static boolean isUtf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(UTF8_CHECK_CHARS);
        CoderResult result;
        while ((result = decoder.decode(in, out, true)).isOverflow()) {
            out.clear();
        }
        return !result.isError() && !decoder.flush(out).isError();
    }

    /** w3lib's declaration pattern: a meta tag naming a charset, an XML declaration's encoding, or {@code <body}. */
    private static String bodyDeclaration() {
        String template = "%s\\s*=\\s*[\"']?\\s*%s\\s*[\"']?";
        String otherAttributes = "(?:\\s+[^=<>/\\s\"'\\x00-\\x1f\\x7f]+(?:\\s*=\\s*(?:'[^']*'|\"[^\"]*\"|[^'\"\\s]+))?)*?";
        String httpEquiv = template.formatted("http-equiv", "Content-Type");
        String content = template.formatted("content", "(?<mime>[^;]+);\\s*charset=(?<charset>[\\w-]+)");
        String charset = template.formatted("charset", "(?<charset2>[\\w-]+)");
        String xml = template.formatted("encoding", "(?<xmlcharset>[\\w-]+)");
        return "<\\s*(?:meta" + otherAttributes + "(?:(?:\\s+" + httpEquiv + "|\\s+" + content + "){2}|\\s+" + charset
                + ")|\\?xml\\s[^>]+" + xml + "|body)";
    }
}
