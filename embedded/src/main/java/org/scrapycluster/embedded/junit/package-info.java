/** JUnit Jupiter support: one {@link org.scrapycluster.embedded.EmbeddedStack} shared by every test of a JVM. */
package org.scrapycluster.embedded.junit;
