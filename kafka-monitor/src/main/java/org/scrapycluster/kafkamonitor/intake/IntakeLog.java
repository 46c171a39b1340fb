package org.scrapycluster.kafkamonitor.intake;

import org.scrapycluster.kafkamonitor.rejection.Rejection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The log records of the requests the monitor took (docs/compatibility.md §7.9), which the original's ELK
 * dashboards chart: an accepted request's message ({@code Added crawl to Redis}, ...) with its fields
 * and {@code parsed}, {@code valid}; a rejected record's reason ({@code Unparseable JSON Received},
 * {@code Did not find schema to validate request}, ...) with {@code parsed}, {@code valid},
 * {@code data}, the violations and where the record was.
 */
final class IntakeLog {

    private static final Logger LOG = LoggerFactory.getLogger(IntakeLog.class);

    private IntakeLog() {
    }

    static void accepted(Disposition.Accepted accepted, String message) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        LoggingEventBuilder event = LOG.atInfo();
        accepted.request().forEachField(event::addKeyValue);
        event.addKeyValue("parsed", true).addKeyValue("valid", true).log(message);
    }

    /** Logs a rejected record; {@code data} is its text as the rejected topic shows it. */
    static void rejected(Batch.Entry entry, Rejection rejection, String data) {
        if (!LOG.isWarnEnabled()) {
            return;
        }
        LoggingEventBuilder event = LOG.atWarn()
                .addKeyValue("parsed", rejection.parsed())
                .addKeyValue("valid", false)
                .addKeyValue("data", data);
        rejection.schema().ifPresent(schema -> event.addKeyValue("schema", schema));
        event.addKeyValue("violations", rejection.details())
                .addKeyValue("topic", entry.partition().topic())
                .addKeyValue("partition", entry.partition().partition())
                .addKeyValue("offset", entry.offset())
                .log(rejection.reason());
    }
}
