/**
 * Extension jars made in a test: sources compiled against the test's own class path and packed, with
 * their service lists and resources, into a jar in a plugin folder, so that a test loads them the way a
 * service loads a user's plugin.
 */
package org.scrapycluster.embedded.plugin;
