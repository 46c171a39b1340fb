/**
 * API keys of the gateway ({@code REST_API_KEYS}, {@code REST_READ_KEYS} and their files,
 * reloaded when a file changes) and {@code GET /access}, which tells a client what its key
 * allows. See docs/security.md.
 */
package org.scrapycluster.rest.access;
