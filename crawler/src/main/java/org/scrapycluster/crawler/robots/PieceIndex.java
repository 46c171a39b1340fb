package org.scrapycluster.crawler.robots;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

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
    /** The children of node {@code n} are {@link #childNode} from {@code childStart[n]} to {@code childStart[n + 1]}, by character. */
    private final int[] childStart;
    private final char[] childChar;
    private final int[] childNode;
    /** For each node, the node of its longest proper suffix in the trie. */
    private final int[] failure;
    /** Each node's number in a walk of the failure tree, in which the nodes below a node follow it. */
    private final int[] order;
    /** The numbers of the nodes at and below the node at which each piece ends: from {@code pieceFirst} to {@code pieceEnd}. */
    private final int[] pieceFirst;
    private final int[] pieceEnd;

    /** @param pieces non-empty and distinct; a piece's number is its place in this list */
    PieceIndex(List<String> pieces) {
        int count = pieces.size();
        pieceLength = new int[count];
        int characters = 0;
        int longest = 0;
        for (int id = 0; id < count; id++) {
            pieceLength[id] = pieces.get(id).length();
            characters += pieceLength[id];
            longest = Math.max(longest, pieceLength[id]);
        }
        // in the pieces' order each one shares with the one before it a run of nodes and adds new ones, and each
        // node's children come in the order of their characters: no node is looked for while the trie is built
        int[] parent = new int[characters + 1];
        char[] via = new char[characters + 1];
        int[] path = new int[longest + 1];
        int[] pieceNode = new int[count];
        int used = 1;
        String previous = "";
        for (int id : IntStream.range(0, count).boxed().sorted(Comparator.comparing(pieces::get)).toList()) {
            String piece = pieces.get(id);
            for (int i = sharedStart(previous, piece); i < piece.length(); i++) {
                parent[used] = path[i];
                via[used] = piece.charAt(i);
                path[i + 1] = used++;
            }
            pieceNode[id] = path[piece.length()];
            previous = piece;
        }
        childStart = new int[used + 1];
        childChar = new char[used - 1];
        childNode = new int[used - 1];
        for (int node = 1; node < used; node++) {
            childStart[parent[node] + 1]++;
        }
        for (int node = 0; node < used; node++) {
            childStart[node + 1] += childStart[node];
        }
        int[] next = Arrays.copyOf(childStart, used);
        for (int node = 1; node < used; node++) {
            int slot = next[parent[node]]++;
            childChar[slot] = via[node];
            childNode[slot] = node;
        }
        failure = new int[used];
        order = new int[used];
        linkFailures(used);
        int[] below = numberFailureTree(used);
        pieceFirst = new int[count];
        pieceEnd = new int[count];
        for (int id = 0; id < count; id++) {
            pieceFirst[id] = order[pieceNode[id]];
            pieceEnd[id] = below[pieceNode[id]];
        }
    }

    /** How many characters {@code a} and {@code b} start with alike. */
    private static int sharedStart(String a, String b) {
        int shared = 0;
        int most = Math.min(a.length(), b.length());
        while (shared < most && a.charAt(shared) == b.charAt(shared)) {
            shared++;
        }
        return shared;
    }

    private void linkFailures(int used) {
        int[] queue = new int[used];
        int head = 0;
        int tail = 0;
        queue[tail++] = ROOT;
        while (head < tail) {
            int node = queue[head++];
            for (int slot = childStart[node]; slot < childStart[node + 1]; slot++) {
                int child = childNode[slot];
                failure[child] = node == ROOT ? ROOT : follow(failure[node], childChar[slot]);
                queue[tail++] = child;
            }
        }
    }

    /**
     * Numbers the nodes in a depth-first walk of the failure tree (each node's parent is its failure).
     *
     * @return for each node, the number after those of the nodes below it
     */
    private int[] numberFailureTree(int used) {
        int[] firstChild = new int[used];
        int[] nextSibling = new int[used];
        Arrays.fill(firstChild, NONE);
        for (int node = 1; node < used; node++) {
            nextSibling[node] = firstChild[failure[node]];
            firstChild[failure[node]] = node;
        }
        int[] below = new int[used];
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
        return below;
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

    /** The child of {@code node} by {@code c}, or {@value #NONE}. */
    private int child(int node, char c) {
        int low = childStart[node];
        int high = childStart[node + 1] - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            char at = childChar[middle];
            if (at < c) {
                low = middle + 1;
            } else if (at > c) {
                high = middle - 1;
            } else {
                return childNode[middle];
            }
        }
        return NONE;
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
        return (long) childStart.length * Integer.BYTES + childChar.length * (long) (Character.BYTES + Integer.BYTES)
                + failure.length * 2L * Integer.BYTES + pieceLength.length * 3L * Integer.BYTES;
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
            int size = Integer.highestOneBit(Math.max(1, length - 1)) << 1;
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
            int end = firstWithin(from + pieceLength[id] - 1, pieceFirst[id], pieceEnd[id]);
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
