/**
 * Connecting to Redis and the building blocks every Redis user shares: the connection with its
 * fail-fast behaviour, Lua scripts run by digest, distributed locks and outage reporting.
 */
package org.scrapycluster.common.redis;
