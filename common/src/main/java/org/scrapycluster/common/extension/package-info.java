/**
 * Loading extensions — spiders, item pipelines, link filters, Kafka and Redis monitor plugins — the one
 * way every service does: found in the service lists ({@code META-INF/services}) or by class name, from the service's
 * class path and the jars of the plugin folders, constructed without arguments, configured once, named,
 * and ordered by the settings that list them. See docs/extending.md.
 */
package org.scrapycluster.common.extension;
