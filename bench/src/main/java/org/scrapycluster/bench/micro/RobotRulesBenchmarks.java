package org.scrapycluster.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.crawler.robots.PathRules;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;

/**
 * A URL asked of a host's robots.txt rules, by crawler-commons' own matching and by {@link PathRules}: for a file
 * like a large site's (60 rules, 9 of them with wildcards) and for 500 KiB of hostile patterns
 * ({@code Disallow: /*aaa…ab<n>}, 300 {@code a}s each) asked about a path of 2,000 characters.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RobotRulesBenchmarks {

    @Param({"site", "hostile"})
    public String file;

    private BaseRobotRules crawlerCommons;
    private BaseRobotRules pathRules;
    private final List<String> urls = new ArrayList<>();
    private int next;

    @Setup
    public void parse() {
        String robotsTxt = file.equals("site") ? site() : hostile();
        crawlerCommons = new SimpleRobotRulesParser().parseContent("http://a.test/robots.txt",
                robotsTxt.getBytes(StandardCharsets.UTF_8), "text/plain", List.of("scrapy"));
        pathRules = PathRules.of(crawlerCommons);
        if (file.equals("site")) {
            for (String url : SamplePages.urls()) {
                urls.add(url);
                urls.add(url + "?sort=price&page=2");
            }
        } else {
            urls.add("http://a.test/" + "a".repeat(2_000));
        }
    }

    @Benchmark
    public boolean crawlerCommons() {
        return crawlerCommons.isAllowed(nextUrl());
    }

    @Benchmark
    public boolean pathRules() {
        return pathRules.isAllowed(nextUrl());
    }

    private String nextUrl() {
        String url = urls.get(next);
        next = (next + 1) % urls.size();
        return url;
    }

    private static String site() {
        StringBuilder robotsTxt = new StringBuilder("User-agent: *\n");
        for (String section : List.of("account", "cart", "checkout", "admin", "api", "internal", "login", "logout",
                "register", "print", "preview", "tmp", "cgi-bin", "search", "compare", "wishlist", "orders", "returns",
                "reviews/new", "share", "track", "static/private", "export", "feeds/private")) {
            robotsTxt.append("Disallow: /").append(section).append('\n');
            robotsTxt.append("Disallow: /en/").append(section).append("/\n");
        }
        robotsTxt.append("""
                Allow: /search/help
                Allow: /api/docs/
                Disallow: /*?sort=
                Disallow: /*&sort=
                Disallow: /*?sessionid=
                Disallow: /*.pdf$
                Disallow: /*/print$
                Disallow: /*?*filter=
                Allow: /*?page=
                Allow: /index.html
                Disallow: /*.json$
                Disallow: /*/amp/
                Crawl-delay: 1
                """);
        return robotsTxt.toString();
    }

    private static String hostile() {
        StringBuilder robotsTxt = new StringBuilder("User-agent: *\n");
        for (int rule = 0; robotsTxt.length() < 500 * 1024; rule++) {
            robotsTxt.append("Disallow: /*").append("a".repeat(300)).append('b').append(rule).append('\n');
        }
        return robotsTxt.toString();
    }
}
