/**
 * Small pieces for code that composes {@link java.util.concurrent.CompletableFuture}s: reading what a future failed with.
 */
package org.scrapycluster.common.concurrent;
