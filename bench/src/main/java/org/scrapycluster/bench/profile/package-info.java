/**
 * Where a recorded run spent its CPU: {@code scrapy-cluster bench profile} reads a Java Flight Recorder file
 * (for example the crawl benchmark's node, run with {@code --jvm-option=-XX:StartFlightRecording=...}) and
 * prints the flame graph's summary as Markdown tables, the form docs/benchmarks.md keeps.
 */
package org.scrapycluster.bench.profile;
