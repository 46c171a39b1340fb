package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Occurrences of a set of pieces in a text, found in one pass, against {@link String#indexOf}. */
class PieceIndexTest {

    @Test
    void overlappingAndNestedPiecesAreAllFound() {
        PieceIndex index = new PieceIndex(List.of("a", "aa", "ab", "b", "bab"));
        PieceIndex.Occurrences found = index.find("aabab");
        assertEquals(0, found.firstFrom(0, 0));
        assertEquals(3, found.firstFrom(0, 2));
        assertEquals(-1, found.firstFrom(0, 4));
        assertEquals(0, found.firstFrom(1, 0));
        assertEquals(-1, found.firstFrom(1, 1));
        assertEquals(1, found.firstFrom(2, 0));
        assertEquals(3, found.firstFrom(2, 2));
        assertEquals(4, found.firstFrom(3, 3));
        assertEquals(2, found.firstFrom(4, 0), "a piece found through another's failure");
    }

    @Test
    void randomPiecesAreFoundWhereIndexOfFindsThem() {
        Random random = new Random(42);
        for (int round = 0; round < 500; round++) {
            List<String> pieces = new ArrayList<>();
            while (pieces.size() < 1 + random.nextInt(12)) {
                String piece = text(random, 1 + random.nextInt(4));
                if (!pieces.contains(piece)) {
                    pieces.add(piece);
                }
            }
            PieceIndex index = new PieceIndex(pieces);
            String text = text(random, random.nextInt(40));
            PieceIndex.Occurrences found = index.find(text);
            for (int id = 0; id < pieces.size(); id++) {
                for (int from = 0; from <= text.length(); from++) {
                    assertEquals(text.indexOf(pieces.get(id), from), found.firstFrom(id, from), pieces + " in " + text);
                }
            }
        }
    }

    private static String text(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append("abc".charAt(random.nextInt(3)));
        }
        return text.toString();
    }
}
