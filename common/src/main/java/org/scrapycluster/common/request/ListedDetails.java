package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.List;

/**
 * What is wrong with a request, as its sender is told it: the first {@value #MAX_LISTED} details, each cut to
 * {@value #MAX_CHARS} characters, then how many more there are. A request of a megabyte can break a few hundred
 * thousand rules (one for each item of a long list of the wrong type); an answer listing them all would be tens of
 * megabytes, larger than Kafka takes and slow to build for every other caller of the same process.
 */
public final class ListedDetails {

    /** Most details listed; the rest are counted. */
    public static final int MAX_LISTED = 100;

    /** Longest detail kept: a violation quoting a huge value stays readable. */
    public static final int MAX_CHARS = 500;

    private ListedDetails() {
    }

    /** The first {@value #MAX_LISTED} of {@code details}, each cut, and a last line saying how many more there are. */
    public static List<String> of(List<String> details) {
        List<String> listed = new ArrayList<>(details.stream().limit(MAX_LISTED).map(ListedDetails::cut).toList());
        if (details.size() > MAX_LISTED) {
            listed.add("request: " + (details.size() - MAX_LISTED) + " more violations not listed");
        }
        return List.copyOf(listed);
    }

    private static String cut(String detail) {
        return detail.length() <= MAX_CHARS ? detail : detail.substring(0, MAX_CHARS) + "…";
    }
}
