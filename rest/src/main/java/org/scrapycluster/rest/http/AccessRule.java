package org.scrapycluster.rest.http;

import io.netty.handler.codec.http.HttpMethod;

/**
 * The access a call of one route needs: {@link Access#READ} or {@link Access#WRITE}. A route
 * declares none by default and then gets {@link #BY_METHOD}, so a route added later needs at
 * least a read key without anyone thinking of it.
 */
@FunctionalInterface
public interface AccessRule {

    /** {@code GET} and {@code HEAD} need a read key; every other method a write key. */
    AccessRule BY_METHOD = call -> call.method().equals(HttpMethod.GET) || call.method().equals(HttpMethod.HEAD)
            ? Access.READ : Access.WRITE;

    /** Reading only, whatever the method (the call changes nothing). */
    AccessRule READ_ONLY = call -> Access.READ;

    /** {@link Access#READ} or {@link Access#WRITE}; never {@link Access#NONE}. */
    Access needed(HttpCall call);
}
