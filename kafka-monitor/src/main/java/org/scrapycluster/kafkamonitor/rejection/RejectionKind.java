package org.scrapycluster.kafkamonitor.rejection;

import java.util.Locale;

/** Why a record was rejected, in the broad terms metrics count by. */
public enum RejectionKind {
    /** Not a JSON document the monitor reads: not UTF-8, malformed, empty, too big or too deep. */
    UNREADABLE,
    /** JSON that matches no plugin's schema. */
    INVALID,
    /** A request a plugin refused although it matched its schema, or that Redis refused (a stopped or expired crawl). */
    REFUSED;

    /** The lower-case name used as a metric tag. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
