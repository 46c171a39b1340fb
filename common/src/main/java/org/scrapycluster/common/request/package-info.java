/** Request schemas: the JSON schemas of the four request types and the validator that applies them, with defaults filled in. */
package org.scrapycluster.common.request;
