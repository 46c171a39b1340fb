package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;

/**
 * The errors the schema library finds in one request, handed to it as the list it adds them to: every error counted,
 * only the first {@value ListedDetails#MAX_LISTED} on the request's own fields and as many on values inside them kept,
 * and a list's repeated items counted once (the library reports {@code uniqueItems} for each repeat). A request of a
 * megabyte can break hundreds of thousands of rules, one for each item of a long list of the wrong type; kept, their
 * errors outlived the young generation and took the collector most of a second a request.
 *
 * <p>The library adds errors and, for Draft 4's keywords, reads the list only to annotate (which validating does not
 * use); what is kept is read here, through {@link #count}, {@link #refusedFields} and {@link #described}.
 */
final class ErrorTally extends ArrayList<Error> {

    private final Set<NodePath> repeating = new HashSet<>();
    private final Set<String> refusedFields = new HashSet<>();
    private final List<Error> ofFields = new ArrayList<>();
    private final List<Error> ofValuesInside = new ArrayList<>();
    private int count;

    /** Counts {@code error}, and keeps it while fewer than the most kept of its kind are. */
    @Override
    public boolean add(Error error) {
        if (error.getKeyword().equals("uniqueItems") && !repeating.add(error.getInstanceLocation())) {
            return false;
        }
        count++;
        Optional<String> field = SchemaViolations.field(error);
        field.ifPresent(refusedFields::add);
        List<Error> kept = field.isPresent() ? ofFields : ofValuesInside;
        if (kept.size() >= ListedDetails.MAX_LISTED) {
            return false;
        }
        kept.add(error);
        return super.add(error);
    }

    @Override
    public boolean addAll(Collection<? extends Error> errors) {
        boolean kept = false;
        for (Error error : errors) {
            kept |= add(error);
        }
        return kept;
    }

    @Override
    public void clear() {
        super.clear();
        repeating.clear();
        refusedFields.clear();
        ofFields.clear();
        ofValuesInside.clear();
        count = 0;
    }

    /** How many rules the request breaks. */
    int count() {
        return count;
    }

    /** The request's own fields that a rule refuses ({@code appid}), every one. */
    Set<String> refusedFields() {
        return refusedFields;
    }

    /** The errors to describe, at most {@code most}: those on the request's own fields first, each kind as found. */
    List<Error> described(int most) {
        List<Error> described = new ArrayList<>(ofFields.subList(0, Math.min(most, ofFields.size())));
        described.addAll(ofValuesInside.subList(0, Math.min(most - described.size(), ofValuesInside.size())));
        return described;
    }
}
