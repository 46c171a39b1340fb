/**
 * What happens to a record the monitor does not accept: the reason, said for its sender, the
 * rejected-topic entry and the error answer on the outbound topic (docs/architecture.md, guarantee 5).
 */
package org.scrapycluster.kafkamonitor.rejection;
