/**
 * Host names: the host of a URL and the registered domain that names its queue, throttle and blacklist entry, and the
 * {@code Host} headers the cluster's HTTP servers answer.
 */
package org.scrapycluster.common.domain;
