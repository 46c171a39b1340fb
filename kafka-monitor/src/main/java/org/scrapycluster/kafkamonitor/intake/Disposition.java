package org.scrapycluster.kafkamonitor.intake;

import java.util.Objects;
import java.util.Optional;

import org.scrapycluster.kafkamonitor.dispatch.RankedPlugin;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.rejection.Rejection;

/** What becomes of one record: accepted by a plugin, with its Redis writes, or rejected with a reason. */
sealed interface Disposition {

    /**
     * A plugin accepted the request.
     *
     * @param plugin   the plugin whose schema it matched
     * @param request  what is kept of the request as the plugin saw it (defaults and {@code ts} included)
     * @param handling what to write, and what to log once it is written
     */
    record Accepted(RankedPlugin plugin, AcceptedRequest request, Handling.Accept handling) implements Disposition {

        public Accepted {
            Objects.requireNonNull(plugin, "plugin");
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(handling, "handling");
        }
    }

    /**
     * The record is rejected.
     *
     * @param rejection why
     * @param matched   the plugin whose schema it matched, when a plugin (or Redis) refused it afterwards
     */
    record Rejected(Rejection rejection, Optional<RankedPlugin> matched) implements Disposition {

        public Rejected {
            Objects.requireNonNull(rejection, "rejection");
            Objects.requireNonNull(matched, "matched");
        }
    }
}
