/**
 * The one place that names Redis keys: every key and prefix of the cluster, as templates filled by
 * Java and by the Lua scripts alike (docs/architecture.md "Redis keyspace").
 */
package org.scrapycluster.common.keyspace;
