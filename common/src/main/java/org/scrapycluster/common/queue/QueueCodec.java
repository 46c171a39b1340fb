package org.scrapycluster.common.queue;

/**
 * How items of a Redis queue become stored text and back (the {@code dumps}/{@code loads} codec of
 * docs/compatibility.md §7.2).
 *
 * @param <T> the item type
 */
public interface QueueCodec<T> {

    /** Items that already are the text to store, such as JSON queue members. */
    QueueCodec<String> STRING = new QueueCodec<>() {
        @Override
        public String encode(String item) {
            return item;
        }

        @Override
        public String decode(String text) {
            return text;
        }
    };

    String encode(T item);

    T decode(String text);
}
