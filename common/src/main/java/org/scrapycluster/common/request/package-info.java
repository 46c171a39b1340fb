/**
 * Request schemas: the JSON schemas of the four request types and the validator that applies them, with defaults
 * filled in; and what a log line shows of a request.
 */
package org.scrapycluster.common.request;
