/**
 * What a long-running service is and what it is given: the start/close contract, its context
 * (settings, meters, health checks, node identity, clock), retry back-off and the process host
 * that runs one or several services until the process is told to stop; the errors it cannot go on from, and the
 * causes under a failure.
 */
package org.scrapycluster.common.service;
