/**
 * The gateway's HTTP side on Netty: whole requests bounded in size, connections bounded in number,
 * header time and pipelined requests, each call let through by its API key and routed by path and
 * method to endpoints that run off the event loop, and the original's response envelope and error
 * messages for everything refused.
 */
package org.scrapycluster.rest.http;
