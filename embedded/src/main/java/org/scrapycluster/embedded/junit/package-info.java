/**
 * JUnit Jupiter support: one {@link org.scrapycluster.embedded.EmbeddedStack} shared by every test of a JVM, a
 * clock that tests move by hand, the capture of what a logger writes, and Redis's command statistics.
 */
package org.scrapycluster.embedded.junit;
