/**
 * A TCP proxy on the loopback address for tests that need a server to misbehave in one precise way (refuse one kind of
 * command, stop answering after one kind of request) while the rest of its traffic goes through.
 */
package org.scrapycluster.embedded.proxy;
