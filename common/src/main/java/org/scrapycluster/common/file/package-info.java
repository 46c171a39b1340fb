/**
 * Files a user names (a request file, a domain config, a settings override file, a key or certificate file): why one could
 * not be read, in words, and whether one changed since it was read.
 */
package org.scrapycluster.common.file;
