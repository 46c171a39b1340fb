/**
 * The extension example of docs/extending.md: the {@code titles} spider, the {@code untitled-pages} item
 * pipeline and the {@code no-query} link filter.
 */
package com.example.titles;
