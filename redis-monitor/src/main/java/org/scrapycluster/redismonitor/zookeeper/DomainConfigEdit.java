package org.scrapycluster.redismonitor.zookeeper;

import java.math.BigInteger;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.domain.DomainKey;
import org.scrapycluster.common.json.PythonNumbers;
import org.scrapycluster.common.zookeeper.DomainConfigDocument;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.scrapycluster.redismonitor.job.RejectedJobException;

/**
 * The edit of the domain config a zookeeper request asks for ({@code zk:<action>:<domain>:<appid>} with the value
 * {@code {"domain","uuid"[,"hits","scale","window"]}}), read and checked before ZooKeeper is asked for anything. The
 * domain is stored as queue keys spell it ({@link DomainKey}), and every entry crawlers apply to it, however spelled
 * ({@code Example.com}, written by hand or by a Python Redis monitor), is removed or replaced with it
 * (docs/redis-monitor.md "zookeeper"). A request that cannot be applied is refused with the reason: an unknown action,
 * a domain-update without hits or window, with a window crawlers cannot apply or a scale outside 0..1, an update for a
 * domain that names no queue, a domain with a control character or an internationalised one without an ASCII form.
 */
final class DomainConfigEdit {

    private DomainConfigEdit() {
    }

    /**
     * The edit {@code action} names for {@code domainAsGiven}, as its job key spells it, with the fields of {@code request}.
     *
     * @throws RejectedJobException naming what keeps the request from being applied
     */
    static UnaryOperator<DomainConfigDocument> read(String action, String domainAsGiven, JsonNode request) {
        String domain = domainKey(domainAsGiven);
        return switch (action) {
            case "domain-update" -> {
                requireRegistered(domain);
                double window = seconds(request.path("window"));
                BigInteger hits = wholeNumber(request.path("hits"));
                if (window == 0 || hits.signum() == 0) {
                    throw new RejectedJobException("'hits' and 'window' not set for domain update");
                }
                if (!DomainThrottle.isSettableWindow(window)) {
                    throw new RejectedJobException("'window' must be " + DomainThrottle.SETTABLE_FRACTIONAL_WINDOWS
                            + " for domain update, was " + given(request.path("window")));
                }
                // hits beyond a long are as many as crawlers can count, not the number their low 64 bits make
                long limit = hits.max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
                double scale = scale(request.path("scale"));
                yield config -> config.domainUpdate(domain, asWritten(request.path("window"), window), limit,
                        asWritten(request.path("scale"), scale));
            }
            case "domain-remove" -> config -> config.domainRemove(domain);
            case "blacklist-update" -> {
                requireRegistered(domain);
                yield config -> config.blacklistUpdate(domain);
            }
            case "blacklist-remove" -> config -> config.blacklistRemove(domain);
            default -> throw new RejectedJobException("Unknown zookeeper action '" + action
                    + "'; one of domain-update, domain-remove, blacklist-update, blacklist-remove");
        };
    }

    /**
     * The domain as queue keys, throttles and the blacklist crawlers check spell it (docs/api.md). One with a control
     * character is refused: no host name has one, and the YAML would hold it as {@code !!binary}, which crawlers
     * cannot read as a domain.
     */
    private static String domainKey(String domain) {
        domain.chars().filter(Character::isISOControl).findFirst().ifPresent(control -> {
            throw new RejectedJobException("'domain' holds the control character U+%04X, which no domain name has".formatted(control));
        });
        try {
            return DomainKey.of(domain);
        } catch (IllegalArgumentException e) {
            throw new RejectedJobException("'domain' has no ASCII form (IDNA): " + e.getMessage());
        }
    }

    /**
     * Refuses an update for a domain that names no queue, such as {@code www.ebay.com}, {@code cnn.com/news}, or a name
     * under a suffix that is not public ({@code bücher.example}, whose queues are {@code example.}): queue
     * keys, throttles and the blacklist crawlers check hold registered domains only (docs/api.md), so crawlers would
     * never apply it. A removal is not refused, so that such an entry written before can be taken out.
     */
    private static void requireRegistered(String domain) {
        DomainConfigYaml.notARegisteredDomain(domain).ifPresent(reason -> {
            throw new RejectedJobException(reason + ", so crawlers would never apply it");
        });
    }

    /**
     * The {@code scale} of a domain-update, 1 when it has none: a number from 0 to 1 (docs/api.md), which crawlers
     * apply as written; anything else is refused rather than written for them to clamp, or to read as 1.
     */
    private static double scale(JsonNode field) {
        if (field.isMissingNode() || field.isNull()) {
            return 1.0;
        }
        if (!field.isNumber() || !(field.asDouble() >= 0.0 && field.asDouble() <= 1.0)) {
            throw new RejectedJobException("'scale' must be a number from 0 to 1 for domain update, was " + given(field));
        }
        return field.asDouble();
    }

    /** A field as a refusal quotes it: a text in single quotes, a number as Python writes it, anything else as JSON writes it. */
    private static String given(JsonNode field) {
        if (field.isNumber()) {
            return PythonNumbers.repr(field.numberValue());
        }
        return field.isTextual() ? "'" + field.asText() + "'" : field.toString();
    }

    /**
     * The {@code window} of a domain-update in seconds, a fraction kept ({@code 0.5}, which crawlers apply as written);
     * a string holding a number counts too; 0 when it has none.
     */
    private static double seconds(JsonNode field) {
        return field.asDouble(0.0);
    }

    /**
     * A number of the request as the original writes it into the YAML, of the kind the JSON gave: {@code 60} an integer,
     * {@code 60.0} a float; {@code value} read from a string as a whole number when it is one; a default as a float.
     */
    private static Number asWritten(JsonNode field, double value) {
        if (field.isIntegralNumber()) {
            return field.longValue();
        }
        return field.isTextual() ? DomainConfigYaml.asWritten(value) : value;
    }

    /** A whole number of the request as written, not cut to its low 64 bits; a string holding one counts too. */
    private static BigInteger wholeNumber(JsonNode field) {
        return field.isIntegralNumber() ? field.bigIntegerValue() : BigInteger.valueOf(field.asLong(0));
    }
}
