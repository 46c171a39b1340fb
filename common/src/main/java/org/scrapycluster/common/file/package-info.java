/**
 * Files a user names (a request file, a domain config, a settings override file): why one could not be read, in
 * words.
 */
package org.scrapycluster.common.file;
