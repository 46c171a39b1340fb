package org.scrapycluster.crawler.robots;

import java.util.Arrays;
import java.util.List;

/**
 * Where each of a fixed set of texts, the pieces between the wildcards of a robots.txt's patterns, occurs in a path,
 * in time that grows neither with the number of pieces nor with how often they occur.
 *
 * <p>The pieces make an Aho–Corasick automaton: one pass over a path gives, after each of its characters, the longest
 * piece-prefix the path ends with there, and a piece ends at that character exactly when that state lies below the
 * piece's own in the tree of the automaton's failure links. Numbered in the order a walk of that tree reaches them,
 * the states below a piece's are one range of numbers, so "where does this piece next occur" is "where does the path's
 * sequence of states next take a number in this range", which {@link Occurrences} answers in a few binary searches.
 * A path of {@code n} characters costs {@code n log n} once and each question {@code log² n}, however many pieces a
 * file has and however often they occur. Built once for a file's rules; thread-safe once built.
 */
final class PieceIndex {

    private static final int ROOT = 0;
    private static final int NONE = -1;

    private final int[] pieceLength;
    /** The trie's edges: (node, character) in {@link #edgeKeys}, plus one so that 0 is a free slot; child in {@link #edgeTargets}. */
    private final long[] edgeKeys;
    private final int[] edgeTargets;
    private final int edgeMask;
    /** For each node, the node of its longest proper suffix in the trie. */
    private final int[] failure;
    /** Each node's number in a walk of the failure tree; the nodes below a node have the numbers up to its {@link #below}. */
    private final int[] order;
    private final int[] below;
    /** The node at which each piece ends. */
    private final int[] pieceNode;

    /** @param pieces non-empty and distinct; a piece's number is its place in this list */
    PieceIndex(List<String> pieces) {
        int characters = 0;
        for (String piece : pieces) {
            characters += piece.length();
        }
        int nodes = characters + 1;
        pieceLength = new int[pieces.size()];
        pieceNode = new int[pieces.size()];
        edgeKeys = new long[Integer.highestOneBit(Math.max(2, nodes * 2 - 1)) << 1];
        edgeTargets = new int[edgeKeys.length];
        edgeMask = edgeKeys.length - 1;
        // the trie's children of each node, for the breadth-first pass that links failures
        int[] firstChild = new int[nodes];
        int[] nextSibling = new int[nodes];
        char[] via = new char[nodes];
        Arrays.fill(firstChild, NONE);
        int used = 1;
        for (int id = 0; id < pieces.size(); id++) {
            String piece = pieces.get(id);
            pieceLength[id] = piece.length();
            int node = ROOT;
            for (int i = 0; i < piece.length(); i++) {
                char c = piece.charAt(i);
                int child = child(node, c);
                if (child == NONE) {
                    child = used++;
                    addEdge(node, c, child);
                    via[child] = c;
                    nextSibling[child] = firstChild[node];
                    firstChild[node] = child;
                }
                node = child;
            }
            pieceNode[id] = node;
        }
        failure = new int[used];
        order = new int[used];
        below = new int[used];
        linkFailures(firstChild, nextSibling, via, used);
        numberFailureTree(used);
    }

    private void linkFailures(int[] firstChild, int[] nextSibling, char[] via, int used) {
        int[] queue = new int[used];
        int head = 0;
        int tail = 0;
        queue[tail++] = ROOT;
        while (head < tail) {
            int node = queue[head++];
            for (int child = firstChild[node]; child != NONE; child = nextSibling[child]) {
                failure[child] = node == ROOT ? ROOT : follow(failure[node], via[child]);
                queue[tail++] = child;
            }
        }
    }

    /** Numbers the nodes in a depth-first walk of the failure tree (each node's parent is its failure). */
    private void numberFailureTree(int used) {
        int[] firstChild = new int[used];
        int[] nextSibling = new int[used];
        Arrays.fill(firstChild, NONE);
        for (int node = 1; node < used; node++) {
            nextSibling[node] = firstChild[failure[node]];
            firstChild[failure[node]] = node;
        }
        int[] stack = new int[used];
        int[] resume = new int[used];
        int depth = 0;
        int next = 0;
        stack[0] = ROOT;
        resume[0] = firstChild[ROOT];
        order[ROOT] = next++;
        while (depth >= 0) {
            int child = resume[depth];
            if (child == NONE) {
                below[stack[depth]] = next;
                depth--;
                continue;
            }
            resume[depth] = nextSibling[child];
            order[child] = next++;
            stack[++depth] = child;
            resume[depth] = firstChild[child];
        }
    }

    /** The state after reading {@code c} in {@code node}: its child by {@code c}, or that of its longest suffix that has one. */
    private int follow(int node, char c) {
        int state = node;
        while (true) {
            int child = child(state, c);
            if (child != NONE) {
                return child;
            }
            if (state == ROOT) {
                return ROOT;
            }
            state = failure[state];
        }
    }

    /** The length of piece {@code id}. */
    int length(int id) {
        return pieceLength[id];
    }

    /** The pieces' occurrences in {@code text}, to be asked for. */
    Occurrences find(String text) {
        int[] states = new int[text.length()];
        int state = ROOT;
        for (int i = 0; i < text.length(); i++) {
            state = follow(state, text.charAt(i));
            states[i] = order[state];
        }
        return new Occurrences(states);
    }

    /** About how many bytes the index holds. */
    long bytes() {
        return edgeKeys.length * (long) (Long.BYTES + Integer.BYTES) + failure.length * 3L * Integer.BYTES
                + pieceLength.length * 2L * Integer.BYTES;
    }

    private int child(int node, char c) {
        long key = edgeKey(node, c);
        for (int slot = slot(key); ; slot = (slot + 1) & edgeMask) {
            long held = edgeKeys[slot];
            if (held == key) {
                return edgeTargets[slot];
            }
            if (held == 0) {
                return NONE;
            }
        }
    }

    private void addEdge(int node, char c, int child) {
        long key = edgeKey(node, c);
        int slot = slot(key);
        while (edgeKeys[slot] != 0) {
            slot = (slot + 1) & edgeMask;
        }
        edgeKeys[slot] = key;
        edgeTargets[slot] = child;
    }

    private static long edgeKey(int node, char c) {
        return ((long) node << Character.SIZE | c) + 1;
    }

    private int slot(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & edgeMask;
    }

    /**
     * The automaton's states along one text, by their numbers, in blocks of every power of two, each block's numbers
     * sorted: so whether a block holds a number in a range is one binary search.
     */
    final class Occurrences {

        private final int length;
        /** {@code levels[j]}: the numbers in blocks of {@code 2^j} positions, each block sorted; past the text, none matches. */
        private final int[][] levels;

        private Occurrences(int[] states) {
            length = states.length;
            int size = Math.max(1, Integer.highestOneBit(Math.max(1, length - 1)) << 1);
            levels = new int[Integer.numberOfTrailingZeros(size) + 1][];
            levels[0] = Arrays.copyOf(states, size);
            Arrays.fill(levels[0], length, size, Integer.MAX_VALUE);
            for (int j = 1; j < levels.length; j++) {
                levels[j] = new int[size];
                int half = 1 << (j - 1);
                for (int block = 0; block < size; block += half * 2) {
                    merge(levels[j - 1], block, half, levels[j]);
                }
            }
        }

        private static void merge(int[] from, int start, int half, int[] into) {
            int left = start;
            int right = start + half;
            int end = start + half * 2;
            for (int out = start; out < end; out++) {
                into[out] = right >= end || left < start + half && from[left] <= from[right] ? from[left++] : from[right++];
            }
        }

        /** The first start of piece {@code id} at {@code from} or after it; {@value PieceIndex#NONE} when there is none. */
        int firstFrom(int id, int from) {
            int node = pieceNode[id];
            int end = firstWithin(from + pieceLength[id] - 1, order[node], below[node]);
            return end == NONE ? NONE : end - pieceLength[id] + 1;
        }

        /** The first position at {@code from} or after it whose state is numbered in [{@code low}, {@code high}). */
        private int firstWithin(int from, int low, int high) {
            int top = levels.length - 1;
            if (!holds(top, 0, low, high)) {
                return NONE; // nowhere in the text: one look at the whole of it
            }
            int position = from;
            while (position < length) {
                int level = 0;
                while (level + 1 < levels.length && (position & ((2 << level) - 1)) == 0) {
                    level++;
                }
                if (holds(level, position, low, high)) {
                    while (level > 0) {
                        level--;
                        if (!holds(level, position, low, high)) {
                            position += 1 << level;
                        }
                    }
                    return position;
                }
                position += 1 << level;
            }
            return NONE;
        }

        /** Whether the block of {@code 2^level} positions from {@code start} holds a number in [{@code low}, {@code high}). */
        private boolean holds(int level, int start, int low, int high) {
            int[] sorted = levels[level];
            int from = start;
            int to = start + (1 << level);
            while (from < to) {
                int middle = (from + to) >>> 1;
                if (sorted[middle] < low) {
                    from = middle + 1;
                } else {
                    to = middle;
                }
            }
            return from < start + (1 << level) && sorted[from] < high;
        }
    }
}
