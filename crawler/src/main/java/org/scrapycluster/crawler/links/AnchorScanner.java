package org.scrapycluster.crawler.links;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jsoup.parser.Parser;
import org.scrapycluster.common.json.UnicodeText;

/**
 * Finds the {@code a} and {@code area} elements of an HTML page that have an {@code href}, with that href and
 * the element's text, in one pass over the page and without building its tree: the link spider needs nothing
 * else of a page, and a tree costs several times the scan (docs/cpu-per-page.md, "Link extraction").
 *
 * <p>It reads tags as the HTML tokenizer does: comments, doctypes and processing instructions are skipped;
 * attribute values may be quoted with either quote or unquoted, and their character references are decoded;
 * of an attribute given twice the first counts; a tag cut off by the end of the page is no tag. The content
 * of {@code script}, {@code style}, {@code xmp}, {@code iframe}, {@code noembed}, {@code noframes},
 * {@code title} and {@code textarea} holds no tags, and after {@code plaintext} nothing is a tag.
 *
 * <p>An element's text is all the text inside it as it stands (character references decoded, the content of
 * a {@code script} or {@code style} inside it included, comments not), as XPath's {@code string()} gives it;
 * an {@code area} has none. An {@code a} ends at its end tag, at the next {@code a} (which the HTML parser
 * would close it for), at the end tag of the element around it, or at the end of the page.
 *
 * <p>An XML page ({@link ResponseKind#XML}) is read the same way, except that a CDATA section
 * ({@code <![CDATA[…]]>}) holds no tags, as lxml's XML parser reads it: an {@code <a href>} inside one (an RSS item's
 * description) is text, not a link. In HTML, {@code <![CDATA[} opens a bogus comment that ends at the next {@code >}.
 *
 * <p>Not thread-safe: one scanner scans one page.
 */
final class AnchorScanner {

    /** One link element: its {@code href} as written (references decoded) and its text. */
    record Anchor(String href, String text) {
    }

    /**
     * The most link elements read from one page: the rest are not. A real page has a few hundred, a site map written as
     * HTML some tens of thousands; a page of 800,000 (10 MiB of {@code <a href=N>}) held about 460 MB on its way to be
     * filed, so that two or three at once ran a node out of memory.
     */
    static final int MOST_ANCHORS = 100_000;
    /** What follows the {@code <} of an XML CDATA section. */
    private static final String CDATA_START = "![CDATA[";
    private static final Set<String> RAW_TEXT = Set.of("script", "style", "xmp", "iframe", "noembed", "noframes");
    private static final Set<String> ESCAPABLE_RAW_TEXT = Set.of("title", "textarea");
    private static final Set<String> VOID = Set.of("area", "base", "basefont", "bgsound", "br", "col", "embed", "frame",
            "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr");

    private final String html;
    private final boolean xml;
    private final int length;
    private final List<Anchor> anchors = new ArrayList<>();
    private int at;

    /** The href of the {@code a} being read, or null outside one. */
    private String openHref;
    private final StringBuilder openText = new StringBuilder();
    /** The elements opened inside the {@code a} being read and not closed yet, innermost first. */
    private final Deque<String> openInside = new ArrayDeque<>();

    /** What a start or end tag said: its name, lower case, and its first {@code href}. */
    private String tagName;
    private String tagHref;

    private AnchorScanner(String html, boolean xml) {
        this.html = html;
        this.xml = xml;
        this.length = html.length();
    }

    /**
     * The link elements of {@code page}, in document order, at most {@link #MOST_ANCHORS}; {@code xml} when it is an
     * XML page.
     */
    static List<Anchor> scan(String page, boolean xml) {
        AnchorScanner scanner = new AnchorScanner(page, xml);
        scanner.run();
        return scanner.anchors;
    }

    private void run() {
        while (at < length && anchors.size() < MOST_ANCHORS) {
            int open = html.indexOf('<', at);
            if (open < 0) {
                text(at, length);
                break;
            }
            text(at, open);
            at = open + 1;
            char next = at < length ? html.charAt(at) : 0;
            if (next == '!') {
                skipMarkupDeclaration();
            } else if (next == '?') {
                skipPast('>');
            } else if (next == '/') {
                endTag();
            } else if (isAsciiLetter(next)) {
                startTag();
            } else {
                text(open, open + 1);
            }
        }
        closeLink();
    }

    private void startTag() {
        if (!readTag()) {
            return;
        }
        String name = tagName;
        if (name.equals("a")) {
            closeLink();
            if (tagHref != null) {
                openHref = tagHref;
            }
        } else if (name.equals("area")) {
            if (tagHref != null) {
                anchors.add(new Anchor(tagHref, ""));
            }
        } else if (openHref != null && !VOID.contains(name)) {
            openInside.push(name);
        }
        if (RAW_TEXT.contains(name)) {
            rawText(name, false);
        } else if (ESCAPABLE_RAW_TEXT.contains(name)) {
            rawText(name, true);
        } else if (name.equals("plaintext")) {
            rawText(length);
        }
    }

    private void endTag() {
        at++;
        char next = at < length ? html.charAt(at) : 0;
        if (next == '>') {
            at++;
            return;
        }
        if (!isAsciiLetter(next)) {
            skipPast('>');
            return;
        }
        if (!readTag() || openHref == null) {
            return;
        }
        if (tagName.equals("a") || !openInside.contains(tagName)) {
            closeLink();
            return;
        }
        while (!openInside.pop().equals(tagName)) {
            // the elements opened after it close with it
        }
    }

    /**
     * Reads a tag's name and attributes from {@code at}, its first letter, to past its {@code >}; false when
     * the page ends first.
     */
    private boolean readTag() {
        int start = at;
        while (at < length && !endsName(html.charAt(at))) {
            at++;
        }
        tagName = html.substring(start, at).toLowerCase(Locale.ROOT);
        tagHref = null;
        boolean hrefSeen = false;
        while (true) {
            skipSpaceAndSlashes();
            if (at >= length) {
                return false;
            }
            if (html.charAt(at) == '>') {
                at++;
                return true;
            }
            int nameStart = at++;
            while (at < length && !endsName(html.charAt(at)) && html.charAt(at) != '=') {
                at++;
            }
            boolean href = at - nameStart == 4 && html.regionMatches(true, nameStart, "href", 0, 4);
            skipSpace();
            String value = "";
            if (at < length && html.charAt(at) == '=') {
                at++;
                skipSpace();
                value = attributeValue();
                if (value == null) {
                    return false;
                }
            }
            if (href && !hrefSeen) {
                hrefSeen = true;
                tagHref = value.indexOf('&') < 0 ? value : decoded(value, true);
            }
        }
    }

    /** A quoted or unquoted attribute value from {@code at}; null when the page ends inside quotes. */
    private String attributeValue() {
        if (at >= length) {
            return "";
        }
        char quote = html.charAt(at);
        if (quote == '"' || quote == '\'') {
            int close = html.indexOf(quote, at + 1);
            if (close < 0) {
                at = length;
                return null;
            }
            String value = html.substring(at + 1, close);
            at = close + 1;
            return value;
        }
        int start = at;
        while (at < length && !isSpace(html.charAt(at)) && html.charAt(at) != '>') {
            at++;
        }
        return html.substring(start, at);
    }

    /**
     * Skips {@code <!--comment-->} (also the empty {@code <!-->} and {@code <!--->}), or a doctype or other declaration;
     * in XML, reads a CDATA section as text.
     */
    private void skipMarkupDeclaration() {
        if (xml && html.startsWith(CDATA_START, at)) {
            at += CDATA_START.length();
            int end = html.indexOf("]]>", at);
            rawText(end < 0 ? length : end);
            at = end < 0 ? length : end + 3;
            return;
        }
        if (!html.startsWith("!--", at)) {
            skipPast('>');
            return;
        }
        int body = at + 3;
        if (html.startsWith(">", body)) {
            at = body + 1;
        } else if (html.startsWith("->", body)) {
            at = body + 2;
        } else {
            int end = html.indexOf("-->", body);
            at = end < 0 ? length : end + 3;
        }
    }

    /** Reads the content of a raw text element {@code name} up to its end tag, which is read next. */
    private void rawText(String name, boolean references) {
        int end = at;
        while ((end = html.indexOf("</", end)) >= 0) {
            int after = end + 2 + name.length();
            if (html.regionMatches(true, end + 2, name, 0, name.length()) && (after >= length || endsName(html.charAt(after)))) {
                break;
            }
            end += 2;
        }
        if (end < 0) {
            end = length;
        }
        if (references) {
            text(at, end);
            at = end;
        } else {
            rawText(end);
        }
    }

    /** The page up to {@code end}, taken as it is, as the text of the open link. */
    private void rawText(int end) {
        if (openHref != null) {
            openText.append(html, at, end);
        }
        at = end;
    }

    /** The page between {@code from} and {@code to}, character references decoded, as the text of the open link. */
    private void text(int from, int to) {
        if (openHref == null || from >= to) {
            return;
        }
        String chunk = html.substring(from, to);
        openText.append(chunk.indexOf('&') < 0 ? chunk : decoded(chunk, false));
    }

    private void closeLink() {
        if (openHref != null && anchors.size() < MOST_ANCHORS) {
            anchors.add(new Anchor(openHref, openText.toString()));
            openHref = null;
            openText.setLength(0);
            openInside.clear();
        }
    }

    private void skipPast(char c) {
        int found = html.indexOf(c, at);
        at = found < 0 ? length : found + 1;
    }

    private void skipSpace() {
        while (at < length && isSpace(html.charAt(at))) {
            at++;
        }
    }

    private void skipSpaceAndSlashes() {
        while (at < length && (isSpace(html.charAt(at)) || html.charAt(at) == '/')) {
            at++;
        }
    }

    /**
     * {@code text} with its character references decoded as HTML5 decodes them: jsoup's decoding, except that a
     * reference to a lone surrogate ({@code &#xD800;}) is U+FFFD, as HTML5 has it, not the surrogate, which no UTF-8
     * consumer of the result message could read (two references that make a pair make its character).
     */
    private static String decoded(String text, boolean inAttribute) {
        return UnicodeText.repaired(Parser.unescapeEntities(text, inAttribute));
    }

    private static boolean endsName(char c) {
        return isSpace(c) || c == '/' || c == '>';
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }
}
