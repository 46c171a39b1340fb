package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The zookeeper job's edits on the document as written (the byte-for-byte cases are in {@link DomainConfigEditsTest}). */
class DomainConfigDocumentTest {

    /** The reviewer's case: read as crawlers read it and written back, b.com lost both values and owner went. */
    @Test
    void anEditWritesBackWhatCrawlersReadOtherwiseOrNotAtAll() {
        String text = "owner: crawl-team\ndomains:\n  a.com: {window: 0.5, hits: 10}\n  b.com: {window: \"60\", hits: \"30\"}\n";

        String written = DomainConfigDocument.read(text).domainRemove("c.com").text();

        assertEquals("blacklist: []\ndomains:\n  a.com:\n    hits: 10\n    window: 0.5\n  b.com:\n    hits: '30'\n    window: '60'\n"
                + "owner: crawl-team\n", written);
    }

    @Test
    void theDomainEntryWrittenIsTheOneTheRequestGives() {
        String text = "domains:\n  cnn.com: {window: 30, hits: 5, scale: 0.5, note: hand-written}\n";

        String written = DomainConfigDocument.read(text).domainUpdate("cnn.com", 60, 15, 0.9).text();

        assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 15\n    scale: 0.9\n    window: 60\n", written);
    }

    /** A window and a scale are written as given, as the original writes a request's numbers: a float as a float. */
    @Test
    void numbersAreWrittenAsTheyWereGivenFloatsAsFloatsIntegersAsIntegers() {
        String written = DomainConfigDocument.read("").domainUpdate("a.com", 0.5, 15, 1.0).domainUpdate("b.com", 60.0, 15, 1)
                .domainUpdate("c.com", 60L, 15, 0.25).text();

        assertEquals("blacklist: []\ndomains:\n  a.com:\n    hits: 15\n    scale: 1.0\n    window: 0.5\n"
                + "  b.com:\n    hits: 15\n    scale: 1\n    window: 60.0\n"
                + "  c.com:\n    hits: 15\n    scale: 0.25\n    window: 60\n", written);
    }

    @Test
    void anEmptyPartCountsAsNone() {
        String written = DomainConfigDocument.read("domains:\nblacklist:\n").domainUpdate("cnn.com", 60, 15, 1.0).text();

        assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 15\n    scale: 1.0\n    window: 60\n", written);
    }

    /** Keys that are not all text are not sorted, as PyYAML leaves keys it cannot compare; one that is a number is no domain. */
    @Test
    void entriesThatAreNotTextAreKeptAndMatchNoDomain() {
        String text = "blacklist: [7, EXAMPLE.com, 7.5]\ndomains:\n  1: {window: 60, hits: 1}\n  Example.com: {window: 60, hits: 2}\n";
        DomainConfigDocument document = DomainConfigDocument.read(text);

        assertEquals("blacklist:\n- 7\n- example.com\n- 7.5\ndomains:\n  1:\n    hits: 1\n    window: 60\n  example.com:\n"
                + "    hits: 3\n    scale: 1.0\n    window: 60\n",
                document.blacklistUpdate("example.com").domainUpdate("example.com", 60, 3, 1.0).text());
        assertEquals("blacklist:\n- 7\n- 7.5\ndomains:\n  1:\n    hits: 1\n    window: 60\n",
                document.blacklistRemove("example.com").domainRemove("example.com").text());
    }

    /** PyYAML's escapes, hex in upper case, in double-quoted text only: a backslash of plain text is text. */
    @Test
    void textInOtherScriptsIsEscapedAsPyYamlEscapesIt() {
        String written = DomainConfigDocument.read("owner: Jürgen\npath: C:\\xfc\nmark: \"\\x7f\\U0001f600\"\n").domainRemove("c.com").text();

        assertEquals("blacklist: []\ndomains: {}\nmark: \"\\x7F\\U0001F600\"\nowner: \"J\\xFCrgen\"\npath: C:\\xfc\n", written);
    }

    /**
     * A date is written back as Python writes its {@code date}, a time as its naive {@code datetime}, which the original's
     * PyYAML (3.12) moves to UTC when the time has an offset (expected text from PyYAML 3.12's safe_load and safe_dump).
     */
    @Test
    void datesAndTimesAreWrittenBackAsPythonWritesThem() {
        String text = "since: 2024-01-01\nat: 2024-1-5 1:02:03.5 +1\nutc: 2001-12-14T21:59:43Z\nfar: 2024-01-01 10:00:00 +24\n";

        String written = DomainConfigDocument.read(text).blacklistUpdate("ebay.com").text();

        assertEquals("at: 2024-01-05 00:02:03.500000\nblacklist:\n- ebay.com\ndomains: {}\nfar: 2023-12-31 10:00:00\n"
                + "since: 2024-01-01\nutc: 2001-12-14 21:59:43\n", written);
    }

    @Test
    void anEditReturnsANewDocument() {
        DomainConfigDocument document = DomainConfigDocument.read("blacklist: [a.com]\n");
        document.blacklistUpdate("b.com");
        assertEquals("blacklist:\n- a.com\n", document.text());
    }

    /** What crawlers would read otherwise than written is said, for the monitor's warning. */
    @Test
    void tellsWhatCrawlersSkip() {
        DomainConfigDocument document = DomainConfigDocument.read("owner: crawl-team\n");
        assertEquals(List.of(new ConfigProblem("owner", "unknown key (only blacklist and domains are read)")), document.problems());
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "- a.com\n", "domains: {cnn.com: [\n", "domains: [cnn.com]\n",
        "blacklist: {ebay.com: 1}\n", "blacklist: 7\n", "since: 2024-02-30\n", "at: 2024-01-01 25:00:00\n", "at: 9999-12-31 23:00:00 -02\n",
        "at: 0001-01-01 00:30:00 +01\n"})
    void refusesADocumentAnEditWouldLosePartOf(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DomainConfigDocument.read(text));
        assertTrue(!e.getMessage().isBlank(), "says why");
    }

    /** Crawlers read a blacklist that is one domain as a list of it: a domain edit keeps it, a blacklist edit lists it. */
    @Test
    void aBlacklistThatIsOneDomainIsEditedAsAListOfIt() {
        DomainConfigDocument document = DomainConfigDocument.read("blacklist: ebay.com\n");
        assertEquals("blacklist: ebay.com\ndomains:\n  cnn.com:\n    hits: 15\n    scale: 1.0\n    window: 60\n",
                document.domainUpdate("cnn.com", 60, 15, 1.0).text(), "as the original writes it");
        assertEquals("blacklist:\n- ebay.com\n- cnn.com\ndomains: {}\n", document.blacklistUpdate("cnn.com").text());
        assertEquals("blacklist: []\ndomains: {}\n", document.blacklistRemove("ebay.com").text());
    }
}
