package org.scrapycluster.crawler.links;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.scrapycluster.crawler.links.ResponseKind.BINARY;
import static org.scrapycluster.crawler.links.ResponseKind.HTML;
import static org.scrapycluster.crawler.links.ResponseKind.XML;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The response class Scrapy 1.5's {@code responsetypes.from_args} would pick: header, then extension, then body. */
class ResponseKindTest {

    private static final byte[] PDF = {'%', 'P', 'D', 'F', '-', '1', '.', '4', '\n', '%', (byte) 0xE2, (byte) 0xE3, 0x01, 0x02};
    private static final byte[] PAGE = "<html><body><a href='/x'>x</a></body></html>".getBytes(StandardCharsets.UTF_8);

    private static ResponseKind of(String contentType, String url, byte[] body) {
        return ResponseKind.of(contentType, null, url, body);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {"text/html; charset=utf-8 | HTML", " TEXT/HTML | HTML", "text/plain | HTML",
        "text/csv | HTML", "text | HTML", "application/json | HTML", "application/x-javascript | HTML",
        "application/xhtml+xml | HTML", "text/xml | XML", "application/rss+xml | XML", "application/atom+xml | XML",
        "application/xml;charset=utf-8 | XML", "application/rdf+xml | XML"})
    void theContentTypeDecidesWhenScrapyNamesIt(String contentType, ResponseKind kind) {
        assertEquals(kind, of(contentType, "http://h/file.pdf", PDF), "neither the URL nor the body is looked at");
    }

    /** A type Scrapy builds a plain Response of leaves the decision to the URL, then the body. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"application/octet-stream", "binary/octet-stream", "application/pdf", "image/svg+xml", "''", "html",
        "application/vnd.custom+xml"})
    void otherTypesLeaveTheDecisionToTheUrlThenTheBody(String contentType) {
        assertEquals(HTML, of(contentType, "http://h/bucket/index", PAGE), "HTML sniffed from the body");
        assertEquals(BINARY, of(contentType, "http://h/bucket/report", PDF));
        assertEquals(HTML, of(contentType, "http://h/bucket/report.html", PDF), "the extension comes before the body");
        assertEquals(XML, of(contentType, "http://h/feed.rss", PAGE));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"http://h/a.HTML, HTML", "http://h/a.xhtml, HTML", "http://h/a.txt, HTML", "http://h/a.json, HTML",
        "http://h/a.js, HTML", "http://h/a.css, HTML", "http://h/feed.xml, XML", "http://h/feed.atom, XML",
        "http://h/a.xsd, XML", "http://h/a.pdf, BINARY", "http://h/a.html.gz, BINARY", "http://h/a.svgz, BINARY",
        "http://h/a.html?x=1, BINARY", "http://h/a.php?f=b.xml, XML", "http://h/, BINARY", "http://h/.html, BINARY"})
    void withoutAContentTypeTheUrlsExtensionDecidesAsPythonsMimetypes(String url, ResponseKind kind) {
        assertEquals(kind, of(null, url, PDF), "a PDF body: BINARY means the extension decided nothing");
    }

    @Test
    void theContentDispositionFileNameComesBeforeTheUrl() {
        assertEquals(HTML, ResponseKind.of("application/octet-stream", "attachment; filename=\"page.html\"", "http://h/dl", PDF));
        assertEquals(XML, ResponseKind.of(null, "attachment; filename='feed.xml'", "http://h/a.html", PDF));
        assertEquals(BINARY, ResponseKind.of(null, "attachment", "http://h/dl", PDF), "no file name: the URL, then the body");
        assertEquals(HTML, ResponseKind.of(null, "attachment; filename=report.pdf", "http://h/a.html", PDF),
                "a file name of no text type decides nothing");
    }

    @Test
    void theBodyIsSniffedAsScrapysFromBody() {
        assertEquals(HTML, of(null, "http://h/", new byte[0]), "an empty body is text");
        assertEquals(HTML, of(null, "http://h/", "plain words".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(XML, of(null, "http://h/", "<?XML version='1.0'?><rss/>".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(HTML, of(null, "http://h/", "<?xml version='1.0'?><HTML>".getBytes(StandardCharsets.US_ASCII)),
                "<html> wins over <?xml");
        assertEquals(HTML, of(null, "http://h/", "a\u0000b\tc\r\nd".getBytes(StandardCharsets.US_ASCII)), "NUL, tab, CR, LF are text");
        assertEquals(BINARY, of(null, "http://h/", "<html>\u001b".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(HTML, of(null, "http://h/", "caf\u00e9 \u20ac".getBytes(StandardCharsets.UTF_8)), "bytes above 0x7F are text");
    }

    @Test
    void onlyTheFirstBytesOfTheBodyAreSniffed() {
        byte[] late = new byte[ResponseKind.SNIFFED_BYTES + 10];
        Arrays.fill(late, (byte) 'x');
        late[ResponseKind.SNIFFED_BYTES] = 0x01;
        assertEquals(HTML, of(null, "http://h/", late), "a control character past the window is not seen");
        late[ResponseKind.SNIFFED_BYTES - 1] = 0x01;
        assertEquals(BINARY, of(null, "http://h/", late));
        byte[] declaration = new byte[ResponseKind.SNIFFED_BYTES + 10];
        Arrays.fill(declaration, (byte) ' ');
        System.arraycopy("<?xml".getBytes(StandardCharsets.US_ASCII), 0, declaration, ResponseKind.SNIFFED_BYTES - 3, 5);
        assertEquals(HTML, of(null, "http://h/", declaration), "a declaration cut by the window is not seen");
    }
}
