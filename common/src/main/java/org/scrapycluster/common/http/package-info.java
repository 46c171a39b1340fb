/**
 * What HTTP lets a request carry, where a rule is needed both by the crawler that sends the request and by the
 * services that accept it for crawling.
 */
package org.scrapycluster.common.http;
