package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.List;

/**
 * What is wrong with a request, as its sender is told it: at most {@value #MAX_LISTED} lines, each detail cut to
 * {@value #MAX_CHARS} characters; when there are more details, the last line says how many are not listed. A request
 * of a megabyte can break a few hundred thousand rules (one for each item of a long list of the wrong type); an answer
 * listing them all would be tens of megabytes, larger than Kafka takes and slow to build for every other caller of the
 * same process. Listing a listing changes nothing.
 */
public final class ListedDetails {

    /** Most lines listed, the one counting the rest among them. */
    public static final int MAX_LISTED = 100;

    /** Longest detail kept: a violation quoting a huge value stays readable. */
    public static final int MAX_CHARS = 500;

    private ListedDetails() {
    }

    /** {@code details} as a listing: every one, or the first and a line saying how many more there are. */
    public static List<String> of(List<String> details) {
        return of(details, details.size());
    }

    /**
     * The listing of {@code count} details, of which {@code details} may hold only the first.
     *
     * @throws IllegalArgumentException when {@code count} is less than the details given
     */
    public static List<String> of(List<String> details, int count) {
        if (count < details.size()) {
            throw new IllegalArgumentException(count + " details in all, but " + details.size() + " given");
        }
        int shown = count <= MAX_LISTED ? details.size() : Math.min(details.size(), MAX_LISTED - 1);
        List<String> listed = new ArrayList<>(details.stream().limit(shown).map(ListedDetails::cut).toList());
        if (count > shown) {
            listed.add("request: " + (count - shown) + " more violations not listed");
        }
        return List.copyOf(listed);
    }

    private static String cut(String detail) {
        return detail.length() <= MAX_CHARS ? detail : detail.substring(0, MAX_CHARS) + "…";
    }
}
