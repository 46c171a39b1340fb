/**
 * Layered settings: per-service defaults declared once in {@code config/*.yml}, overridden by a
 * local YAML file, environment variables and {@code --set NAME=VALUE}, read through typed getters.
 */
package org.scrapycluster.common.settings;
