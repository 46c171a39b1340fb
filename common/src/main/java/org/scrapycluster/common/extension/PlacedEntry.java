package org.scrapycluster.common.extension;

/**
 * An entry of an ordered map setting ({@code ITEM_PIPELINES}, a monitor's {@code PLUGINS}) that stands: one that is
 * not null and that no entry of the user's replaced ({@link PlacedEntries}).
 *
 * @param name  as the setting names the extension
 * @param place its order or rank, lowest first
 */
public record PlacedEntry(String name, long place) {
}
