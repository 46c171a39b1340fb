package org.scrapycluster.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class UrlPasswordsTest {

    @Test
    void aUrlsPasswordIsHiddenAndItsUserNameAndTheRestKept() {
        assertEquals("https://alice:***@intranet.example.com:8443/a?b=c#d",
                UrlPasswords.hidden("https://alice:s3cr3t@intranet.example.com:8443/a?b=c#d"));
        assertEquals("Fetch of ftp://bob:***@files.example.org failed; retried http://carol:***@example.net/x",
                UrlPasswords.hidden("Fetch of ftp://bob:pw@files.example.org failed; retried http://carol:p:w@example.net/x"));
        assertEquals("{\"url\":\"HTTP://u:***@example.com/\"}", UrlPasswords.hidden("{\"url\":\"HTTP://u:pass@example.com/\"}"));
    }

    @Test
    void aRawAtSignInThePasswordIsHiddenWithIt() {
        assertEquals("http://user:***@example.com/page@2", UrlPasswords.hidden("http://user:p@ss@example.com/page@2"));
    }

    @Test
    void textWithoutAPasswordIsGivenBackAsItIs() {
        for (String text : new String[] {"http://user@example.com/", "mailto:someone@example.com", "http://example.com/a:b@c",
                "http://example.com/?u=a:b@c", "no URL here: a:b@c", "http://[::1]:8080/"}) {
            assertSame(text, UrlPasswords.hidden(text), text);
        }
        assertNull(UrlPasswords.hidden(null));
    }
}
