/**
 * The process's bounded in-memory caches: Caffeine caches, each named, sized by
 * {@code CACHE_MAX_ENTRIES} and reported on {@code /metrics}.
 */
package org.scrapycluster.common.cache;
