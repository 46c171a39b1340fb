/** Domain keying: the host of a URL and the registered domain that names its queue, throttle and blacklist entry. */
package org.scrapycluster.common.domain;
