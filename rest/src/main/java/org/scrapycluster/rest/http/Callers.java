package org.scrapycluster.rest.http;

/** Tells who a call's sender is from the API key it presented. */
@FunctionalInterface
public interface Callers {

    /**
     * @param apiKey the key from {@code Authorization: Bearer} or {@code X-Api-Key}, or null when the call has none
     */
    Caller identify(String apiKey);
}
