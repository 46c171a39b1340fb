/** The web UI at {@code /ui/}: static HTML, JavaScript and CSS from the class path, which talk to the gateway's own endpoints. */
package org.scrapycluster.rest.ui;
