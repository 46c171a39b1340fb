package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code DOWNLOAD_PROXY}'s form, {@code http://[user:password@]host:port}. */
class ProxyConfigTest {

    @Test
    void hostAndPort() {
        assertEquals(ProxyConfig.of("proxy.internal", 3128), ProxyConfig.parse("http://proxy.internal:3128"));
        assertEquals(ProxyConfig.of("10.0.0.5", 8080), ProxyConfig.parse(" HTTP://10.0.0.5:8080/ "));
    }

    /** An IPv6 address without the brackets a URL puts it in, which would resolve to nothing. */
    @Test
    void anIpv6AddressIsTheAddressItself() {
        assertEquals(ProxyConfig.of("::1", 3128), ProxyConfig.parse("http://[::1]:3128"));
        assertEquals(new ProxyConfig("fd00::5", 8080, "crawler", "secret"), ProxyConfig.parse("http://crawler:secret@[fd00::5]:8080"));
    }

    @Test
    void credentialsArePercentDecoded() {
        assertEquals(new ProxyConfig("proxy.internal", 3128, "crawler", "p@ss:w+rd"),
                ProxyConfig.parse("http://crawler:p%40ss%3Aw+rd@proxy.internal:3128"));
    }

    @Test
    void theCredentialsDoNotShowInItsText() {
        assertTrue(!ProxyConfig.parse("http://crawler:secret@proxy.internal:3128").toString().contains("secret"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://crawler:s3cret@proxy.internal:3128 | must be an http:// URL (the proxy is spoken to in plain HTTP), was https://crawler:***@proxy.internal:3128",
            "http://crawler:s3cret@proxy.internal | must name the proxy's host and port, as http://host:port, was http://crawler:***@proxy.internal",
            "http://crawler:s3cret@proxy.internal:3128/x | must be only http://[user:password@]host:port, was http://crawler:***@proxy.internal:3128/x",
            "http://crawler:s3 cret@proxy.internal:3128 | not a URL: Illegal character in authority at index 17 of http://crawler:***@proxy.internal:3128",
            "http://crawler:s3/c@ret@proxy.internal | must name the proxy's host and port, as http://host:port, was http://crawler:***@proxy.internal"})
    void aRefusalNeverShowsThePassword(String url, String message) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ProxyConfig.parse(url));
        assertEquals(message, refused.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://proxy.internal:3128 | must be an http:// URL",
            "socks5://proxy.internal:1080 | must be an http:// URL",
            "proxy.internal:3128 | must be an http:// URL",
            "http://proxy.internal | must name the proxy's host and port",
            "http://proxy.internal:3128/path | must be only http://[user:password@]host:port",
            "http://crawler@proxy.internal:3128 | give the proxy's user name and password",
            "http://proxy internal:3128 | not a URL"})
    void otherFormsAreRefusedWithTheReason(String url, String reason) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ProxyConfig.parse(url));
        assertTrue(refused.getMessage().startsWith(reason), refused.getMessage());
    }
}
