/**
 * JUnit Jupiter support: one {@link org.scrapycluster.embedded.EmbeddedStack} shared by every test of a JVM, and a
 * clock that tests move by hand.
 */
package org.scrapycluster.embedded.junit;
