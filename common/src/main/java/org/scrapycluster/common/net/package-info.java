/**
 * Network addresses as settings, requests and URLs give them: what a TCP port may be, and which addresses this host
 * can listen on.
 */
package org.scrapycluster.common.net;
