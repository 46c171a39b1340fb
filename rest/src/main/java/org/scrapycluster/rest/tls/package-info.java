/**
 * HTTPS on the gateway's port ({@code REST_TLS_CERT_FILE}, {@code REST_TLS_KEY_FILE}, and
 * {@code REST_TLS_CLIENT_CA_FILE} for client certificates): the certificate and key read from PEM files and checked to
 * belong together, read again when the files change, and a plain HTTP request to the HTTPS port answered 400 in words.
 * See docs/security.md "HTTPS on the gateway".
 */
package org.scrapycluster.rest.tls;
