/** {@code scrapy-cluster bench}: the parent of every module's benchmark, and the servers they measure against. */
package org.scrapycluster.standalone.bench;
