/**
 * Raw bytes recognised before they are decoded: the byte order marks of Unicode text and the magic number of gzip
 * data.
 */
package org.scrapycluster.common.bytes;
