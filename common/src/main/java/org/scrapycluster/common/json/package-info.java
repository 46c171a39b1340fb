/**
 * The one Jackson set-up every service uses: a bounded, UTF-8-checking reader for JSON from
 * outside, and writers for standard or key-sorted JSON.
 */
package org.scrapycluster.common.json;
