/**
 * The Kafka client tools of the command line: {@code feed}, which checks a request and sends it
 * to the monitor, and {@code dump}, which lists topics and prints their messages.
 */
package org.scrapycluster.kafkamonitor.tool;
