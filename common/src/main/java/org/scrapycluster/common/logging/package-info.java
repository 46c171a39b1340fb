/**
 * Logging through SLF4J into Logback, configured from the {@code LOG_*} (or the crawler's
 * {@code SC_LOG_*}) settings: text or JSON lines, standard output or a rotating file, and a library's
 * warnings repeated during an outage written once a period, and a service's own messages said once per subject.
 */
package org.scrapycluster.common.logging;
