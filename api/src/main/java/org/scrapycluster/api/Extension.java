package org.scrapycluster.api;

/**
 * What every extension is: a named part a service loads at start-up. An implementation has a public
 * no-argument constructor and is listed in {@code META-INF/services/<the interface it implements>} (for
 * example {@code META-INF/services/org.scrapycluster.api.Spider}), or is named by its class name in the
 * setting that lists its kind. The instance a service uses is constructed once, configured once ({@link #configure}),
 * and then used from several threads at a time: implementations must be thread-safe. Before it, each start checks its
 * settings by constructing and configuring another instance, which it drops (a {@link CrawlerExtension} is closed): state
 * kept in static fields is shared by both, as they share the plugin's class loader (docs/extending.md).
 */
public interface Extension {

    /**
     * The name settings list it by ({@code SPIDER_NAME}, {@code ITEM_PIPELINES}, {@code LINK_FILTERS}, {@code DOWNLOADER_MIDDLEWARES}):
     * lower case, no {@code :} or spaces, unique within its kind. A null or blank name is a start-up error.
     */
    String name();

    /**
     * Reads the extension's settings; called once, before first use. Throw
     * {@link IllegalArgumentException} with a message naming the setting when one cannot be used: the
     * service then refuses to start and prints it. Anything else thrown here stops the start-up too, naming the extension.
     */
    default void configure(ExtensionSettings settings) {
    }
}
