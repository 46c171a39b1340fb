package org.scrapycluster.common.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.api.Spider;
import org.scrapycluster.common.cli.BuildVersion;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.plugin.PluginJar;

import ch.qos.logback.classic.Level;

/** Plugin jars: their own classes first, the API from the service; one name per kind. */
class PluginFoldersTest {

    private static final String SPIDER = """
            package com.example;
            import org.scrapycluster.api.*;
            public final class %s implements Spider {
                public String name() { return "%s"; }
                public SpiderOutput parse(Page page) { return SpiderOutput.publish().withField("origin", org.example.shared.Origin.%s()); }
            }
            """;

    /** The jar's own copy of a class the service's test classes have too, with one method, {@code %s()}. */
    private static final String ORIGIN = """
            package org.example.shared;
            public final class Origin {
                public static String %s() { return "plugin"; }
            }
            """;

    @Test
    void aPluginUsesTheLibraryItBundlesAndTheServicesApi(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        bundlingSpider(folder, "Bundling", "where");

        Spider spider = ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "bundling");

        assertEquals("plugin", spider.parse(null).fields().get("origin"), "the jar's own class first");
        assertEquals(Spider.class, spider.getClass().getInterfaces()[0], "the API is the service's");
        assertEquals("service", org.example.shared.Origin.where());
    }

    /**
     * Writes {@code <name in lower case>.jar} to {@code folder}: the spider {@code com.example.<name>}, whose class holds
     * {@code members}, with what {@code more} adds to the jar.
     */
    private static void spiderJar(Path folder, String name, String members, UnaryOperator<PluginJar> more) {
        String source = """
                package com.example;
                import org.scrapycluster.api.*;
                public final class %s implements Spider {
                %s}
                """.formatted(name, members);
        more.apply(PluginJar.named(name.toLowerCase(Locale.ROOT)).source("com.example." + name, source))
                .service("org.scrapycluster.api.Spider", "com.example." + name).writeTo(folder, "1");
    }

    /**
     * Writes {@code <name in lower case>.jar} to {@code folder}: the spider {@code com.example.<name>}, of that name, and
     * its own copy of {@code org.example.shared.Origin}, whose one method is {@code originMethod}.
     */
    private static void bundlingSpider(Path folder, String name, String originMethod) {
        String lower = name.toLowerCase(Locale.ROOT);
        PluginJar.named(lower).source("com.example." + name, SPIDER.formatted(name, lower, originMethod))
                .source("org.example.shared.Origin", ORIGIN.formatted(originMethod))
                .service("org.scrapycluster.api.Spider", "com.example." + name).writeTo(folder, "1");
    }

    /**
     * A library a plugin bundles that finds classes by the thread's context class loader (Kafka's clients, JDBC's
     * {@code DriverManager}) finds the plugin's own when the call into the plugin is made through {@link OwnClassLoader}.
     */
    @Test
    void aCallIntoAPluginHasItsClassLoaderForContext(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        spiderJar(folder, "Contextual", """
                public String name() { return "contextual"; }
                public SpiderOutput parse(Page page) {
                    try {
                        ClassLoader context = Thread.currentThread().getContextClassLoader();
                        Class<?> origin = Class.forName("org.example.shared.Origin", true, context);
                        return SpiderOutput.publish().withField("origin", origin.getMethod("where").invoke(null));
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
                """, jar -> jar.source("org.example.shared.Origin", ORIGIN.formatted("where")));
        Spider spider = ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "contextual");
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        assertEquals("plugin", OwnClassLoader.call(spider, () -> spider.parse(null)).fields().get("origin"));
        assertEquals(before, Thread.currentThread().getContextClassLoader(), "the thread's own is back");
        assertEquals("service", spider.parse(null).fields().get("origin"), "a call made otherwise finds the service's");
    }

    @Test
    void twoExtensionsOfAKindWithOneNameAreRefused(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        PluginJar.named("first").source("com.example.First", SPIDER.formatted("First", "twin", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.First").writeTo(folder, "1");
        PluginJar.named("second").source("com.example.Second", SPIDER.formatted("Second", "twin", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Second").writeTo(folder, "1");

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).available());
        assertTrue(e.getMessage().contains("Two spiders are called 'twin': com.example.First (first.jar) and com.example.Second"
                + " (second.jar); take one of them out of the plugin folders, or rename one"), e.getMessage());
    }

    @Test
    void anExtensionInTwoJarsIsRefusedNamingEachJarByItsFullPath(@TempDir Path work) throws IOException {
        Path folder = work.resolve("plugins");
        // an upgrade that left the old jar beside the new one: the old, first in name order, would be the one loaded
        PluginJar.named("titles-1.0").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1.0");
        PluginJar.named("titles-1.1").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1.1");

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).available());
        assertTrue(e.getMessage().contains("Several jars hold com.example.Titles, of the spiders called 'titles': "
                + folder.toRealPath().resolve("titles-1.0.jar") + ", " + folder.toRealPath().resolve("titles-1.1.jar")), e.getMessage());
    }

    /** A copy of a plugin's jar in a second folder: the two names alone would not say which file to remove. */
    @Test
    void jarsOfOneNameInTwoFoldersAreNamedByTheirFullPaths(@TempDir Path work) throws IOException {
        Path first = work.resolve("plugins");
        Path second = work.resolve("copy");
        for (Path folder : List.of(first, second)) {
            PluginJar.named("titles").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                    .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1");
        }

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(first + "," + second)).available());
        assertTrue(e.getMessage().contains("'titles': " + first.toRealPath().resolve("titles.jar") + ", "
                + second.toRealPath().resolve("titles.jar") + "; only the first would be loaded"), e.getMessage());
    }

    /** One folder named twice, once through a link to it: its jars are loaded once, not refused as in two jars. */
    @Test
    void aFolderNamedAgainThroughALinkIsOneFolder(@TempDir Path work) throws IOException {
        Path folder = work.resolve("plugins");
        PluginJar.named("titles").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1");
        Path link = Files.createSymbolicLink(work.resolve("linked"), folder);
        Settings settings = settings(folder + "," + link);

        assertEquals(List.of(folder.toRealPath()), PluginFolders.folders(settings));
        assertEquals("titles", ExtensionLoader.of(Spider.class, "spiders", settings).named("SPIDER_NAME", "titles").name());
    }

    /** Two plugins bundling one library at different versions: the shared class loader would give both the first. */
    @Test
    void aClassTwoJarsHoldInDifferentVersionsIsRefusedNamingBoth(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        bundlingSpider(folder, "Aaa", "where");
        bundlingSpider(folder, "Bbb", "newer");

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "bbb"));
        assertTrue(e.getMessage().startsWith("The plugin jars " + folder.resolve("aaa.jar").toAbsolutePath() + " and "
                + folder.resolve("bbb.jar").toAbsolutePath() + " hold different versions of org.example.shared.Origin"), e.getMessage());
    }

    @Test
    void aLinkToAJarThatIsGoneIsRefusedByNameSayingWhereItPoints(@TempDir Path work) throws IOException {
        Path folder = Files.createDirectories(work.resolve("plugins"));
        Path gone = work.resolve("removed-in-an-upgrade.jar");
        Path link = Files.createSymbolicLink(folder.resolve("acme.jar"), gone);

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).available());
        assertTrue(e.getMessage().contains("The plugin jar " + folder.toRealPath().resolve("acme.jar") + " cannot be read (it is a link to "
                + gone + ", which does not exist)"), e.getMessage());
        SettingsException named = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(link)).available());
        assertTrue(named.getMessage().contains("The plugin jar " + link + " cannot be read (it is a link to " + gone + ", which does"
                + " not exist)"), named.getMessage());
        assertEquals(link + " (a jar that cannot be read: it is a link to " + gone + ", which does not exist)",
                PluginFolders.describe(link));
    }

    /** A re-check walk's chain of links said the middle one did not exist; the last one is what is gone. */
    @Test
    void aChainOfLinksToAJarThatIsGoneNamesThePathThatIsMissing(@TempDir Path work) throws IOException {
        Path gone = work.resolve("gone.jar");
        Files.createSymbolicLink(work.resolve("middle.jar"), Path.of("gone.jar"));
        Path link = Files.createSymbolicLink(work.resolve("chain.jar"), Path.of("middle.jar"));

        assertEquals(link + " (a jar that cannot be read: it is a link to middle.jar, which leads to " + gone
                + ", which does not exist)", PluginFolders.describe(link));
    }

    @Test
    void aJarThatCannotBeReadIsRefusedByName(@TempDir Path work) throws IOException {
        Path folder = work.resolve("plugins");
        PluginJar.named("titles").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1");
        // a copy cut short: the class loader would skip it without a word, and its spider would be "not found"
        Files.write(folder.resolve("broken-1.jar"), "PK not a zip".getBytes(StandardCharsets.US_ASCII));

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).available());
        assertTrue(e.getMessage().contains("The plugin jar " + folder.resolve("broken-1.jar").toAbsolutePath() + " cannot be read"),
                e.getMessage());
    }

    @Test
    void anExtensionWithoutANameIsRefusedNamingItsClass(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        PluginJar.named("nameless").source("com.example.Nameless", """
                package com.example;
                import org.scrapycluster.api.*;
                public final class Nameless implements Spider {
                    public String name() { return null; }
                    public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                }
                """).service("org.scrapycluster.api.Spider", "com.example.Nameless").writeTo(folder, "1");
        PluginJar.named("blank").source("com.example.Blank", SPIDER.formatted("Blank", " ", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Blank").writeTo(work.resolve("blank"), "1");

        SettingsException nameless = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).available());
        assertTrue(nameless.getMessage().contains("com.example.Nameless (nameless.jar), listed as one of the spiders, has no name: its name() returns null"), nameless.getMessage());
        SettingsException blank = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(work.resolve("blank"))).available());
        assertTrue(blank.getMessage().contains("com.example.Blank (blank.jar), listed as one of the spiders, has no name: its name() returns ' '"), blank.getMessage());
        spiderJar(work.resolve("throwing"), "Throwing", """
                public String name() { throw new IllegalStateException("not configured"); }
                public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                """, jar -> jar);
        SettingsException throwing = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(work.resolve("throwing"))).available());
        assertTrue(throwing.getMessage().contains("com.example.Throwing (throwing.jar), listed as one of the spiders, has no name: its"
                + " name() failed: "), throwing.getMessage());
        SettingsException byClass = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).instance("SPIDER_NAME", "com.example.Nameless"));
        assertTrue(byClass.getMessage().contains("names com.example.Nameless, which cannot be used: com.example.Nameless (nameless.jar), listed as one of the spiders, has no name"),
                byClass.getMessage());
    }

    @Test
    void anExtensionWhoseConfigureFailsIsAStartUpErrorNamingIt(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        spiderWhoseConfigureThrows("Fragile", "new NullPointerException(\"no such setting\")").service("org.scrapycluster.api.Spider",
                "com.example.Fragile").writeTo(folder, "1");
        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "fragile"));
        assertTrue(e.getMessage().contains("The fragile (com.example.Fragile, fragile.jar) named in SPIDER_NAME failed to configure:"
                + " java.lang.NullPointerException: no such setting"),
                e.getMessage());

        spiderWhoseConfigureThrows("Picky", "new IllegalArgumentException(\"PICKY_LEVEL must be set\")").writeTo(folder, "1");
        SettingsException byClass = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).instance("SPIDER_NAME", "com.example.Picky"));
        assertTrue(byClass.getMessage().contains("The com.example.Picky (picky.jar) named in SPIDER_NAME refused its settings:"
                + " PICKY_LEVEL must be set"), byClass.getMessage());
    }

    /** The jar {@code <name in lower case>.jar} of a spider {@code com.example.<name>} whose configure throws {@code thrown}. */
    private static PluginJar spiderWhoseConfigureThrows(String name, String thrown) {
        return PluginJar.named(name.toLowerCase(Locale.ROOT)).source("com.example." + name, """
                package com.example;
                import org.scrapycluster.api.*;
                public final class %s implements Spider {
                    public String name() { return "%s"; }
                    public void configure(ExtensionSettings settings) { throw %s; }
                    public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                }
                """.formatted(name, name.toLowerCase(Locale.ROOT), thrown));
    }

    /** A jar of two spiders built against a library it lacks: one needs it to be constructed, one to be loaded at all. */
    private static void brokenJar(Path folder) {
        PluginJar.named("broken").source("com.example.NeedsLibrary", """
                package com.example;
                import org.scrapycluster.api.*;
                public final class NeedsLibrary implements Spider {
                    private final Object library = new org.example.missing.Library();
                    public String name() { return "needs-library"; }
                    public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                }
                """).source("com.example.ExtendsLibrary", """
                package com.example;
                import org.scrapycluster.api.*;
                public final class ExtendsLibrary extends org.example.missing.Base implements Spider {
                    public String name() { return "extends-library"; }
                    public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                }
                """).source("org.example.missing.Library", "package org.example.missing; public final class Library { }")
                .source("org.example.missing.Base", "package org.example.missing; public class Base { }")
                .leaveOut("org.example.missing.Library").leaveOut("org.example.missing.Base")
                .service("org.scrapycluster.api.Spider", "com.example.NeedsLibrary")
                .service("org.scrapycluster.api.Spider", "com.example.ExtendsLibrary").writeTo(folder, "1");
    }

    /** A start that checks its settings first loads the same extensions twice; several crawler nodes, once each. */
    @Test
    void aLoadingDoneAgainIsToldOnce(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        PluginJar.named("told").source("com.example.Told", SPIDER.formatted("Told", "told-once", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Told").writeTo(folder, "1");

        List<String> lines;
        try (CapturedLog log = CapturedLog.start(ExtensionLoader.class, Level.INFO)) {
            for (int load = 0; load < 3; load++) {
                assertEquals("told-once", ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "told-once").name());
            }
            lines = log.lines();
        }
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("INFO Loaded spiders"), lines.get(0));
    }

    /** A plugin folder setting that names a jar instead of the folder that holds it: the jar is what was meant. */
    @Test
    void anEntryThatNamesAJarLoadsThatJar(@TempDir Path work) throws IOException {
        Path jar = PluginJar.named("titles").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(work.resolve("plugins"), "1");

        assertEquals("titles", ExtensionLoader.of(Spider.class, "spiders", settings(jar)).named("SPIDER_NAME", "titles").name());
        assertEquals(jar + " (a jar)", PluginFolders.describe(jar));
        Path notes = Files.writeString(work.resolve("notes.txt"), "not a jar");
        assertEquals(notes + " (neither a folder nor a jar)", PluginFolders.describe(notes));
        assertEquals(work.resolve("gone") + " (missing)", PluginFolders.describe(work.resolve("gone")));
    }

    @Test
    void aBrokenExtensionNoSettingNamesIsLeftOutWithAWarningNamingItsJarAndClass(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        brokenJar(folder);
        PluginJar.named("titles").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1");
        ExtensionLoader<Spider> loader = ExtensionLoader.of(Spider.class, "spiders", settings(folder));

        List<String> warnings;
        try (CapturedLog log = CapturedLog.start(ExtensionLoader.class, Level.WARN)) {
            assertEquals("titles", loader.named("SPIDER_NAME", "titles").name());
            assertEquals(List.of("titles"), List.copyOf(loader.available().keySet()));
            warnings = log.lines();
        }

        assertEquals(2, warnings.size(), "once each: " + warnings);
        assertTrue(warnings.get(0).startsWith("WARN com.example.NeedsLibrary (broken.jar), listed as one of the spiders, failed to construct: "
                + "java.lang.NoClassDefFoundError: org/example/missing/Library"), warnings.get(0));
        assertTrue(warnings.get(0).endsWith("; left out, as no setting names its class"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith("WARN com.example.ExtendsLibrary (broken.jar), listed as one of the spiders, cannot be loaded: "
                + "java.lang.NoClassDefFoundError: org/example/missing/Base"), warnings.get(1));
    }

    @Test
    void aBrokenExtensionASettingNamesByItsClassIsAStartUpErrorNamingItsJar(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        brokenJar(folder);
        ExtensionLoader<Spider> loader = ExtensionLoader.of(Spider.class, "spiders", settings(folder));

        SettingsException constructing = assertThrows(SettingsException.class, () -> loader.instance("SPIDER_NAME", "com.example.NeedsLibrary"));
        assertTrue(constructing.getMessage().contains("names com.example.NeedsLibrary, which cannot be used: com.example.NeedsLibrary (broken.jar), "
                + "listed as one of the spiders, failed to construct: java.lang.NoClassDefFoundError: org/example/missing/Library"),
                constructing.getMessage());
        assertInstanceOf(NoClassDefFoundError.class, constructing.getCause());
        SettingsException loading = assertThrows(SettingsException.class, () -> loader.instance("SPIDER_NAME", "com.example.ExtendsLibrary"));
        assertTrue(loading.getMessage().contains("com.example.ExtendsLibrary (broken.jar), listed as one of the spiders, cannot be loaded: "
                + "java.lang.NoClassDefFoundError: org/example/missing/Base"), loading.getMessage());
    }

    @Test
    void aNameThatMatchesNothingNamesTheExtensionsThatCannotBeBuilt(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        brokenJar(folder);

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "needs-library"));

        assertTrue(e.getMessage().contains("names 'needs-library', but there are no spiders of that name; there are: "), e.getMessage());
        assertTrue(e.getMessage().contains("; and some cannot be built, which may be the one meant: com.example.NeedsLibrary (broken.jar), "
                + "listed as one of the spiders, failed to construct: java.lang.NoClassDefFoundError: org/example/missing/Library "
                + "(a class, method or field the extension was compiled against is missing or different here: "), e.getMessage());
        assertTrue(e.getMessage().contains("the service lacks in its jar); com.example.ExtendsLibrary (broken.jar)"), e.getMessage());
    }

    @Test
    void anExtensionBuiltAgainstAnotherApiIsToldSo(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        // compiled against an Origin with a method the service's Origin lacks, and without its own copy of Origin
        PluginJar.named("older").source("com.example.Newer", SPIDER.formatted("Newer", "newer", "elsewhere"))
                .source("org.example.shared.Origin", ORIGIN.formatted("elsewhere")).leaveOut("org.example.shared.Origin")
                .service("org.scrapycluster.api.Spider", "com.example.Newer").writeTo(folder, "1");
        Spider spider = ExtensionLoader.of(Spider.class, "spiders", settings(folder)).named("SPIDER_NAME", "newer");

        NoSuchMethodError e = assertThrows(NoSuchMethodError.class, () -> spider.parse(null));

        assertEquals(e + " (a class, method or field the extension was compiled against is missing or different here: build it"
                + " against the API of this Scrapy Cluster, " + BuildVersion.current() + ", and put the libraries it needs that the"
                + " service lacks in its jar)", ExtensionFailures.described(e));
    }

    @Test
    void otherFailuresAreDescribedAsTheyAre() {
        RuntimeException plain = new IllegalStateException("no store");
        ExceptionInInitializerError initializer = new ExceptionInInitializerError(plain);
        UnsupportedClassVersionError newerJava = new UnsupportedClassVersionError("com/example/Newer has been compiled by a more recent version");

        assertEquals(plain.toString(), ExtensionFailures.described(plain));
        assertEquals(initializer.toString(), ExtensionFailures.described(initializer), "a static initializer's error is the extension's own");
        assertTrue(ExtensionFailures.described(newerJava).endsWith("(the extension was compiled for a newer Java than this JVM's, Java "
                + Runtime.version().feature() + ": compile it with --release " + Runtime.version().feature()
                + " or run the service on a newer Java)"), ExtensionFailures.described(newerJava));
    }

    /** A plugin jar built without its service file: no service finds its extensions by name, and the folder says which jar. */
    @Test
    void aJarListingNoExtensionIsNamedWithItsFolder(@TempDir Path folder) {
        PluginJar.named("no-service").source("com.example.Unlisted", SPIDER.formatted("Unlisted", "unlisted", "where"))
                .writeTo(folder, "1");
        PluginJar.named("titles").source("com.example.Titles", SPIDER.formatted("Titles", "titles", "where"))
                .service("org.scrapycluster.api.Spider", "com.example.Titles").writeTo(folder, "1");
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("PLUGIN_DIRS", folder.toString())));

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings).named("SPIDER_NAME", "unlisted"));

        assertTrue(e.getMessage().endsWith(folder + " (2 jars; listing no extension in META-INF/services: no-service.jar)"),
                e.getMessage());
    }

    @Test
    void aNameThatMatchesNothingListsThePluginFoldersSearchedAndSaysWhichIsMissing(@TempDir Path work) {
        Path misspelt = work.resolve("plugin");
        Path folder = work.resolve("plugins");
        brokenJar(folder);
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("PLUGIN_DIRS", misspelt + "," + folder)));

        SettingsException e = assertThrows(SettingsException.class,
                () -> ExtensionLoader.of(Spider.class, "spiders", settings).named("SPIDER_NAME", "titles"));

        assertTrue(e.getMessage().endsWith("; plugin folders searched: " + misspelt + " (missing), " + folder + " (1 jar)"),
                e.getMessage());
        assertEquals(misspelt + " (missing)", PluginFolders.describe(misspelt), "as scrapy-cluster plugins lists it");
    }

    @Test
    void eachExtensionIsConstructedOnceHoweverOftenItsKindIsAskedFor(@TempDir Path work) throws ReflectiveOperationException {
        Path folder = work.resolve("plugins");
        PluginJar.named("counted").source("com.example.Counted", """
                package com.example;
                import org.scrapycluster.api.*;
                public final class Counted implements Spider {
                    public static int built;
                    public Counted() { built++; }
                    public String name() { return "counted"; }
                    public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                }
                """).service("org.scrapycluster.api.Spider", "com.example.Counted").writeTo(folder, "1");
        ExtensionLoader<Spider> loader = ExtensionLoader.of(Spider.class, "spiders", settings(folder));

        loader.available();
        Spider spider = loader.instance("SPIDER_NAME", "counted");
        loader.available();

        assertEquals(1, spider.getClass().getField("built").getInt(null));
        assertNotSame(spider, loader.instance("SPIDER_NAME", "com.example.Counted"), "an extension named twice is two instances, as before");
    }

    private static Settings settings(Path folder) {
        return settings(folder.toString());
    }

    /** The crawler's settings with the plugin folders {@code folders} ({@code ,}-separated). */
    private static Settings settings(String folders) {
        return Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("PLUGIN_DIRS", folders)));
    }
}
