package org.scrapycluster.rest.http;

/** Answers the requests of one route. It runs on a virtual thread of its own and may block. */
@FunctionalInterface
public interface Endpoint {

    /**
     * @throws RefusedRequestException to refuse the request with an envelope error
     */
    HttpAnswer answer(HttpCall call) throws RefusedRequestException;
}
