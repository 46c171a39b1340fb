/**
 * Network addresses as settings, requests and URLs give them: what a TCP port may be.
 */
package org.scrapycluster.common.net;
