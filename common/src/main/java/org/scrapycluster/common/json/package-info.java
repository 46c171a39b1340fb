/**
 * The one Jackson set-up every service uses: a bounded, UTF-8-checking reader for JSON from
 * outside, and writers for standard or key-sorted JSON; and numbers written as Python writes them,
 * for messages that quote a value and for the YAML the original reads.
 */
package org.scrapycluster.common.json;
