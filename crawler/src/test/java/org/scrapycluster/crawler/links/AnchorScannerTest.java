package org.scrapycluster.crawler.links;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.crawler.links.AnchorScanner.Anchor;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;

/** The scanner finds what an HTML5 parser's tree holds: checked against jsoup's tree on pages of every shape. */
class AnchorScannerTest {

    /** The link elements of jsoup's tree of {@code html}, with their text as XPath's {@code string()}. */
    private static List<Anchor> fromTree(String html) {
        List<Anchor> anchors = new ArrayList<>();
        NodeTraversor.traverse((node, depth) -> {
            if (node instanceof Element element && (element.normalName().equals("a") || element.normalName().equals("area"))
                    && element.hasAttr("href")) {
                StringBuilder text = new StringBuilder();
                NodeTraversor.traverse((inner, d) -> {
                    if (inner instanceof TextNode textNode) {
                        text.append(textNode.getWholeText());
                    } else if (inner instanceof DataNode data) {
                        text.append(data.getWholeData());
                    }
                }, element);
                anchors.add(new Anchor(element.attr("href"), text.toString()));
            }
        }, Jsoup.parse(html));
        return anchors;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<a href='/x'>x</a>",
        "<A HREF=\"/X\">Upper</A>",
        "<a href=/unquoted/path?a=1>u</a>",
        "<a href=/slash/>s</a>",
        "<a href='/x' href='/second'>first wins</a>",
        "<a class=\"a > b\" href='/quoted-gt'>q</a>",
        "<a href='/q?a=1&amp;b=2&copy=3&lt;'>refs</a>",
        "<a href=\"/x\">fish &amp; chips &nbsp; &#65;&#x42; &notin; &notit</a>",
        "<a href='/x'> \n <span>Two</span>&nbsp;words <!-- no --></a>",
        "<a href='/y'><img src='i.png'></a><a href='/z'>a<br>b</a>",
        "<a href='/s'>before<script>var a = '<a href=\"/no\">';</script>after</a>",
        "<a href='/st'><style>a > b { }</style>styled</a>",
        "<script>document.write('<a href=\"/in-script\">x</a>')</script><a href='/after'>after</a>",
        "<SCRIPT>x = '</scripty>'; y = '<a href=/no>'</SCRIPT ><a href='/after'>after</a>",
        "<textarea><a href='/no'>no</a></textarea><a href='/yes'>yes</a>",
        "<title>a <a href='/no'> &amp; b</title><a href='/yes'>yes</a>",
        "<!-- <a href='/commented'>c</a> --><a href='/real'>r</a>",
        "<!--><a href='/after-empty-comment'>e</a><!---><a href='/after-empty-comment-2'>f</a>",
        "<!DOCTYPE html><?xml version='1.0'?><a href='/d'>d</a>",
        "<a href='/one'>one<a href='/two'>two</a>",
        "<ul><li><a href='/li'>item</a></li></ul>",
        "<a href='/b'><b>bold <i>both</i></b> plain</a>",
        "<a>no href</a><a href=''>empty</a><a href>bare</a>",
        "<map><area shape=rect href='/area' alt=Region><area nohref></map>",
        "<a href='/lt'>1 < 2 and 3 <> 4 </ ></a>",
        "<a href='/t'>tail without end",
        "<a href='/x'>x</a><a href='/cut",
        "<a href='/nl'\nclass=\"c\"\n>line\r\nbreaks\rhere</a>",
        "<svg><a href='/svg'>in svg</a></svg>",
        "<a href='/x' / >self</a>",
        "<a href=\"/double&quot;quote\">dq</a>",
        "<a data-x='<a href=/fake>' href='/real'>r</a>",
    })
    void findsWhatTheTreeHolds(String html) {
        assertEquals(fromTree(html), AnchorScanner.scan(html, false));
    }

    @Test
    void findsEveryLinkOfTheReferenceAndSyntheticPages() throws Exception {
        try (var in = AnchorScannerTest.class.getResourceAsStream("/links/reference-page.html")) {
            String reference = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(fromTree(reference), AnchorScanner.scan(reference, false));
        }
        SyntheticSite site = SyntheticSite.builder().seed(5).domains(3).pagesPerDomain(20).linksPerPage(20).build();
        String page = new String(site.render(new PageRef(1, 7), domain -> "http://127.0.0." + (domain + 2)), StandardCharsets.UTF_8);
        assertEquals(fromTree(page), AnchorScanner.scan(page, false));
        assertEquals(20, AnchorScanner.scan(page, false).size());
    }

    /**
     * The tree builder closes an a left open with the element around it, then copies it into what follows
     * (an a with the same href, which the extractor drops as a duplicate); the scanner reports the first only.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "<ul><li><a href='/open'>first</li><li>second</li></ul>",
        "<p><a href='/p'>unclosed</p><p>next</p>",
        "<div><a href='/in-div'>text</div>after",
    })
    void aLinkLeftOpenEndsWithTheElementAroundIt(String html) {
        List<Anchor> tree = fromTree(html);
        assertEquals(2, tree.size());
        assertEquals(tree.get(0).href(), tree.get(1).href());
        assertEquals(List.of(tree.get(0)), AnchorScanner.scan(html, false));
    }

    /** lxml's XML parser reads a CDATA section as text: an RSS item's HTML description holds no link. */
    /**
     * A reference to a lone surrogate is U+FFFD, as in HTML5 (jsoup leaves the surrogate); two references that make a
     * pair make its character, where HTML5 reads two U+FFFD.
     */
    @Test
    void aReferenceToASurrogateIsTheReplacementCharacter() {
        assertEquals(List.of(new Anchor("/h\uFFFDz", "t\uFFFDz \uD83D\uDE00 \uD83D\uDE00")),
                AnchorScanner.scan("<a href='/h&#xD800;z'>t&#xDFFF;z &#x1F600; &#xD83D;&#xDE00;</a>", false));
    }

    @Test
    void inXmlACdataSectionHoldsNoTags() {
        String feed = "<?xml version='1.0'?><rss><channel><item><title>Story</title><link>http://news.test/story</link>"
                + "<description><![CDATA[<p>Read <a href='http://news.test/story'>the story</a> ]] > here</p>]]></description>"
                + "<!-- <a href='/commented'>c</a> --></item><a href='/real'>real <![CDATA[<b>cdata</b>]]> text</a></channel></rss>";
        assertEquals(List.of(new Anchor("/real", "real <b>cdata</b> text")), AnchorScanner.scan(feed, true));
        assertEquals(new Anchor("http://news.test/story", "the story"), AnchorScanner.scan(feed, false).getFirst(),
                "in HTML, <![CDATA[ is a bogus comment up to the next >");
        assertEquals(List.of(), AnchorScanner.scan("<x><![CDATA[<a href='/cut'>never closed", true));
    }

    /** A page of more links than any real page holds is read up to a bound, which keeps what its links hold bounded too. */
    @Test
    void theLinksOfAPageAreReadUpToABound() {
        String page = "<a href=x>x</a>".repeat(AnchorScanner.MOST_ANCHORS + 5) + "<area href=y>";
        assertEquals(AnchorScanner.MOST_ANCHORS, AnchorScanner.scan(page, false).size());
    }
}
