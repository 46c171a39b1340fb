package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Redis glob matching, for routing signalled keys: the original's pattern tests (docs/compatibility.md §10.2) and the syntax. */
class GlobTest {

    @ParameterizedTest(name = "{0} matches {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            info:*:*          | info:stuff:stuff                | true
            info:*:*          | info:stuff:stuff:stuff          | true
            info:*:*          | info:stuff                      | false
            stop:*:*          | stop:stuff:stuff                | true
            stop:*:*          | stop:stuff:stuff:stuff          | true
            timeout:*:*:*     | timeout:stuff:stuff:stuff       | true
            timeout:*:*:*     | timeout:stuff:stuff             | false
            statsrequest:*:*  | statsrequest:crawler:testApp    | true
            statsrequest:*:*  | statsrequest:crawler            | false
            zk:*:*:*          | zk:domain-update:cnn.com:app    | true
            zk:*:*:*          | zk:domain-update:cnn.com        | false
            info:*:*          | xinfo:a:b                       | false
            a?c               | abc                             | true
            a?c               | ac                              | false
            h[ae]llo          | hello                           | true
            h[ae]llo          | hillo                           | false
            h[^e]llo          | hallo                           | true
            h[^e]llo          | hello                           | false
            h[a-b]llo         | hbllo                           | true
            h[a-b]llo         | hcllo                           | false
            a\\*b             | a*b                             | true
            a\\*b             | axb                             | false
            a.b+c             | a.b+c                           | true
            a.b+c             | axbbc                           | false
            """)
    void matchesAsRedisDoes(String glob, String key, boolean matches) {
        assertEquals(matches, Glob.compile(glob).matches(key));
    }

    @ParameterizedTest
    @CsvSource({"a[bc", "[^"})
    void refusesAnOpenClass(String glob) {
        assertThrows(IllegalArgumentException.class, () -> Glob.compile(glob));
    }
}
