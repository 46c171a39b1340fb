/** The ZooKeeper domain config: its YAML model, parser and writer, the watcher crawlers use and the store that edits it. */
package org.scrapycluster.common.zookeeper;
