package org.scrapycluster.common.service;

/**
 * Builds a service from its context. Service modules list their factory in
 * {@code META-INF/services/org.scrapycluster.common.service.ServiceFactory}; standalone finds
 * them there and runs each (the crawler as many times as asked).
 */
public interface ServiceFactory {

    /** The service's name, as its settings file is named. */
    String name();

    /** A new, not yet started instance. */
    Service create(ServiceContext context);
}
