package org.scrapycluster.standalone.acceptance;

import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;

/**
 * A service factory whose services run as {@code node} instead of the host's own identity, so that
 * their heartbeat keys are the ones an answer fixture names.
 */
record PinnedNode(ServiceFactory factory, NodeIdentity node) implements ServiceFactory {

    @Override
    public String name() {
        return factory.name();
    }

    @Override
    public void check(Settings settings) {
        factory.check(settings);
    }

    @Override
    public Service create(ServiceContext context) {
        return factory.create(new ServiceContext(context.settings(), context.meters(), context.prometheus(), context.health(), node,
                context.clock()));
    }
}
