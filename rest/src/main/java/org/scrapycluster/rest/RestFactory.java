package org.scrapycluster.rest;

import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.rest.gateway.RestGateway;

/** Builds the REST gateway; {@code standalone} finds it through {@link java.util.ServiceLoader}. */
public final class RestFactory implements ServiceFactory {

    @Override
    public String name() {
        return "rest";
    }

    @Override
    public void check(Settings settings) {
        RestGateway.check(settings);
    }

    @Override
    public Service create(ServiceContext context) {
        return new RestGateway(context);
    }
}
