/**
 * The gateway's HTTP side on Netty: whole requests bounded in size, routed by path and method to
 * endpoints that run off the event loop, and the original's response envelope and error messages
 * (docs/compatibility.md §6.2) for everything refused.
 */
package org.scrapycluster.rest.http;
