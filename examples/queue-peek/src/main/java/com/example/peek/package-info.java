/**
 * The monitor plugins example of docs/extending.md: a {@code peek} request that asks what a domain's queue will
 * hand out next. {@link com.example.peek.PeekHandler}, a Kafka monitor plugin, checks the request against its own
 * schema and writes a job key; {@link com.example.peek.PeekMonitor}, a Redis monitor plugin made by
 * {@link com.example.peek.PeekMonitorFactory}, answers the job on the requester's outbound topic.
 */
package com.example.peek;
