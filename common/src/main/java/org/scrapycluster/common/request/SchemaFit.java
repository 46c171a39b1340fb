package org.scrapycluster.common.request;

/**
 * How well a request fits a schema it does not match, to name the schema it was most likely meant
 * for when it matches none: the fewer required fields missing plus fields the schema does not
 * allow ({@code distance}) the closer, then the fewer violations, then the more of its fields the
 * schema lists.
 *
 * @param distance     required fields missing plus fields a closed schema does not list
 * @param violations   how many rules of the schema the request breaks
 * @param listedFields how many of the request's fields the schema lists
 */
public record SchemaFit(int distance, int violations, int listedFields) {

    /** Whether this fit is strictly closer than {@code other}; on a full tie the earlier candidate stays. */
    public boolean closerThan(SchemaFit other) {
        if (distance != other.distance) {
            return distance < other.distance;
        }
        if (violations != other.violations) {
            return violations < other.violations;
        }
        return listedFields > other.listedFields;
    }
}
