package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each policy's referrer for a page and a target, in the cases Scrapy 1.5's own tests of its referer middleware check. */
class ReferrerPolicyTest {

    @ParameterizedTest(name = "{0}: {1} -> {2} = {3}")
    @CsvSource(nullValues = "none", value = {
        "scrapy-default, http://scrapytest.org, http://scrapytest.org/, http://scrapytest.org",
        "scrapy-default, https://example.com/, https://scrapy.org/, https://example.com/",
        "scrapy-default, http://example.com/, https://scrapy.org/, http://example.com/",
        "scrapy-default, https://example.com/, http://scrapy.org/, none",
        "scrapy-default, http://user:password@example.com/, https://scrapy.org/, http://example.com/",
        "scrapy-default, file:///home/path/to/somefile.html, https://scrapy.org/, none",
        "scrapy-default, s3://mybucket/path/to/data.csv, http://scrapy.org/, none",
        "scrapy-default, http://example.com/page.html#top, http://example.com/, http://example.com/page.html",
        "no-referrer, https://example.com/page.html, https://example.com/, none",
        "no-referrer-when-downgrade, https://example.com:443/page.html, https://scrapy.org/, https://example.com/page.html",
        "no-referrer-when-downgrade, https://example.com:444/page.html, https://scrapy.org/, https://example.com:444/page.html",
        "no-referrer-when-downgrade, ftps://example.com/urls.zip, http://scrapy.org/, none",
        "no-referrer-when-downgrade, http://example.com:80/page.html, http://not.example.com/, http://example.com/page.html",
        "no-referrer-when-downgrade, http://example.com:443/page.html, http://scrapy.org/, http://example.com:443/page.html",
        "no-referrer-when-downgrade, ftp://example.com/urls.zip, https://scrapy.org/, ftp://example.com/urls.zip",
        "no-referrer-when-downgrade, file:///home/path/to/somefile.html, http://scrapy.org/, file:///home/path/to/somefile.html",
        "same-origin, http://example.com:80/page.html, http://example.com/not-page.html, http://example.com/page.html",
        "same-origin, http://example.com/page.html, http://example.com:80/not-page.html, http://example.com/page.html",
        "same-origin, http://example.com/page.html, http://www.example.com/otherpage.html, none",
        "same-origin, http://example.com:81/page.html, http://example.com/not-page.html, none",
        "same-origin, https://example.com/page.html, http://example.com/not-page.html, none",
        "same-origin, https://user:password@example.com/page.html, https://example.com/not-page.html, https://example.com/page.html",
        "origin, https://example.com/page.html, http://scrapy.org, https://example.com/",
        "origin, https://user:password@example.com/page.html, http://scrapy.org, https://example.com/",
        "strict-origin, https://example.com/page.html, http://scrapy.org, none",
        "strict-origin, http://example.com/page.html, https://scrapy.org, http://example.com/",
        "origin-when-cross-origin, https://example2.com/page.html, https://scrapy.org/otherpage.html, https://example2.com/",
        "origin-when-cross-origin, https://example3.com:444/page.html, https://example3.com/not-page.html, https://example3.com:444/",
        "origin-when-cross-origin, https://example.com:443/page.html, https://example.com/not-page.html, https://example.com/page.html",
        "strict-origin-when-cross-origin, https://example4.com/page.html, http://example4.com/not-page.html, none",
        "strict-origin-when-cross-origin, ftp://example4.com/urls.zip, http://example4.com/not-page.html, ftp://example4.com/",
        "strict-origin-when-cross-origin, http://example4.com/page.html, https://not.example4.com/, http://example4.com/",
        "strict-origin-when-cross-origin, https://user:password@example5.com/page.html, https://example5.com/not-page.html, https://example5.com/page.html",
        "unsafe-url, https://example.com/sekrit.html, http://not.example.com/, https://example.com/sekrit.html",
        "unsafe-url, https://user:password@example.com/page.html?q=1#frag, http://scrapy.org/, https://example.com/page.html?q=1",
    })
    void aPolicyGivesTheReferrerScrapyGives(String policy, String page, String target, String referrer) {
        assertEquals(Optional.ofNullable(referrer),
                ReferrerPolicy.named(policy).orElseThrow().referrerFor(ReferringPage.of(page), target));
    }

    @Test
    void aPolicyIsNamedByItsNameInAnyCaseOrItsScrapyClass() {
        assertEquals(Optional.of(ReferrerPolicy.SAME_ORIGIN), ReferrerPolicy.named("Same-Origin"));
        assertEquals(Optional.of(ReferrerPolicy.SCRAPY_DEFAULT),
                ReferrerPolicy.named("scrapy.spidermiddlewares.referer.DefaultReferrerPolicy"));
        assertEquals(Optional.of(ReferrerPolicy.NO_REFERRER_WHEN_DOWNGRADE), ReferrerPolicy.named(""));
        assertEquals(Optional.empty(), ReferrerPolicy.named("no-referrer, origin"), "several values name none, as in Scrapy 1.5");
        assertEquals(Optional.empty(), ReferrerPolicy.named("sekrit"));
    }
}
