package org.scrapycluster.crawler.node;

import org.scrapycluster.embedded.origin.Exchange;
import org.scrapycluster.embedded.origin.Route;

/**
 * Pages under {@value #PATH} whose Content-Type says less than their body: {@value #OCTET_PAGE}, HTML served as
 * {@code binary/octet-stream} (as S3 serves an upload without a type), linking to {@value #TARGET}; {@value #FEED}, an
 * RSS feed whose item links are inside CDATA; {@value #PDF}, a PDF; and {@value #TARGET}, a small HTML page.
 */
final class TypedPages implements Route {

    static final String PATH = "/typed";
    static final String OCTET_PAGE = PATH + "/upload";
    static final String FEED = PATH + "/feed";
    static final String PDF = PATH + "/report";
    static final String TARGET = PATH + "/target";

    /** The start of a PDF: its header, then the binary marker line of bytes above 0x7F, then a control character. */
    static final byte[] PDF_BYTES = {'%', 'P', 'D', 'F', '-', '1', '.', '7', '\n', '%', (byte) 0xB5, (byte) 0xED, (byte) 0xAE,
        (byte) 0xFB, '\n', 0x02, 0x1F, '\n'};

    @Override
    public void serve(Exchange exchange) {
        switch (exchange.path()) {
            case OCTET_PAGE -> exchange.sendText(200, "binary/octet-stream",
                    "<html><body><a href=\"" + TARGET + "\">target</a></body></html>");
            case FEED -> exchange.sendText(200, "application/rss+xml", "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>"
                    + "<title>News</title><item><title>Story</title><link>" + exchange.baseUrl(exchange.domainIndex()) + TARGET
                    + "</link><description><![CDATA[<p><a href=\"" + TARGET + "\">Read the story</a></p>]]></description>"
                    + "</item></channel></rss>");
            case PDF -> exchange.send(200, PDF_BYTES, "Content-Type", "application/pdf");
            default -> exchange.sendText(200, "text/html; charset=utf-8", "<html><body>target</body></html>");
        }
    }
}
