/**
 * Which plugin handles a request: the plugins the {@code PLUGINS} setting lists, loaded, ranked
 * and tried in order, and the closest schema's violations when none matches.
 */
package org.scrapycluster.kafkamonitor.dispatch;
