/**
 * JUnit Jupiter support: one {@link org.scrapycluster.embedded.EmbeddedStack} shared by every test of a JVM, a
 * clock that tests move by hand, and the capture of what a logger writes.
 */
package org.scrapycluster.embedded.junit;
