/** Announcing crawls that have finished: nothing queued and nothing leased for a quiet period. */
package org.scrapycluster.redismonitor.completion;
