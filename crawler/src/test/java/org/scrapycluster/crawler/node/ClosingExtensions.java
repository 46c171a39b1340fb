package org.scrapycluster.crawler.node;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.scrapycluster.api.DownloaderMiddleware;
import org.scrapycluster.api.ExtensionSettings;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;

/** Test extensions, named in the settings by their class names, that say when they are closed. */
final class ClosingExtensions {

    /** The names of the extensions closed, in order. */
    static final Queue<String> CLOSED = new ConcurrentLinkedQueue<>();

    private ClosingExtensions() {
    }

    /** A spider, named by its class name, that closes cleanly. */
    public static final class ClosingSpider implements Spider {
        @Override
        public String name() {
            return "closing";
        }

        @Override
        public SpiderOutput parse(Page page) {
            return SpiderOutput.publish();
        }

        @Override
        public void close() {
            CLOSED.add("spider");
        }
    }

    /** A link filter that closes cleanly. */
    public static final class ClosingFilter implements LinkFilter {
        @Override
        public String name() {
            return "closing-filter";
        }

        @Override
        public boolean allows(PageLink link, Page page) {
            return true;
        }

        @Override
        public void close() {
            CLOSED.add(name());
        }
    }

    /** A middleware with a bug in its {@code close}. */
    public static final class Unclosable implements DownloaderMiddleware {
        @Override
        public String name() {
            return "unclosable";
        }

        @Override
        public void close() {
            CLOSED.add(name());
            throw new AssertionError("a bug");
        }
    }

    /** A middleware whose settings are never right: it cannot be configured. */
    public static final class Unconfigurable implements DownloaderMiddleware {
        @Override
        public String name() {
            return "unconfigurable";
        }

        @Override
        public void configure(ExtensionSettings settings) {
            throw new IllegalArgumentException("MY_SETTING is missing");
        }

        @Override
        public void close() {
            CLOSED.add(name());
        }
    }

    /** A middleware that closes cleanly. */
    public static final class ClosingMiddleware implements DownloaderMiddleware {
        @Override
        public String name() {
            return "closing-middleware";
        }

        @Override
        public void close() {
            CLOSED.add(name());
        }
    }
}
