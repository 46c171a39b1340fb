package org.scrapycluster.crawler.node;

import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;

/** Builds crawler nodes; standalone runs one per {@code --crawlers}. */
public final class CrawlerFactory implements ServiceFactory {

    @Override
    public String name() {
        return "crawler";
    }

    @Override
    public void check(Settings settings) {
        CrawlerNode.check(settings);
    }

    @Override
    public Service create(ServiceContext context) {
        return new CrawlerNode(context);
    }
}
