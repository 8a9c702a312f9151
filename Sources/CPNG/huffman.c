/* Huffman codes for the deflate encoder: lengths limited to a number of bits, and canonical codes. */
#include "huffman.h"
#include <string.h>

enum { MAX_SYMBOLS = 286, MAX_BITS = 15 };

/* Huffman code lengths for `count` symbols of the given frequencies, at most `limit` bits (miniz's method: build
   the tree, then move codes deeper until the Kraft sum is exact). Unused symbols get 0. */
void cpng_code_lengths(const uint32_t *frequency, int count, int limit, uint8_t *lengths) {
    int symbols[MAX_SYMBOLS], used = 0;
    memset(lengths, 0, (size_t)count);
    for (int s = 0; s < count; s++) if (frequency[s]) symbols[used++] = s;
    if (used == 0) return;
    if (used == 1) {
        lengths[symbols[0]] = 1;
        return;
    }
    /* Sort the used symbols by frequency (then by symbol, for determinism): insertion sort, n <= 286. */
    for (int i = 1; i < used; i++) {
        int s = symbols[i], j = i - 1;
        while (j >= 0 && (frequency[symbols[j]] > frequency[s] || (frequency[symbols[j]] == frequency[s] && symbols[j] > s))) {
            symbols[j + 1] = symbols[j];
            j--;
        }
        symbols[j + 1] = s;
    }
    /* Two-queue Huffman: leaves in ascending order, internal nodes made in ascending order. */
    uint64_t weight[2 * MAX_SYMBOLS];
    int parent[2 * MAX_SYMBOLS];
    for (int i = 0; i < used; i++) weight[i] = frequency[symbols[i]];
    int leaf = 0, node = used, next_internal = used;
    for (int made = 0; made < used - 1; made++) {
        int pick[2];
        for (int k = 0; k < 2; k++) {
            if (leaf < used && (node >= next_internal || weight[leaf] <= weight[node])) pick[k] = leaf++;
            else pick[k] = node++;
        }
        weight[next_internal] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = next_internal;
        next_internal++;
    }
    int depth[2 * MAX_SYMBOLS];
    depth[next_internal - 1] = 0;
    for (int i = next_internal - 2; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    int per_length[33] = {0};
    for (int i = 0; i < used; i++) per_length[depth[i] > 32 ? 32 : depth[i]]++;
    for (int i = limit + 1; i <= 32; i++) {
        per_length[limit] += per_length[i];
        per_length[i] = 0;
    }
    uint32_t total = 0;
    for (int i = limit; i > 0; i--) total += (uint32_t)per_length[i] << (limit - i);
    while (total != (1u << limit)) {
        per_length[limit]--;
        for (int i = limit - 1; i > 0; i--) {
            if (per_length[i]) {
                per_length[i]--;
                per_length[i + 1] += 2;
                break;
            }
        }
        total--;
    }
    /* The rarest symbols take the longest codes. */
    int index = 0;
    for (int bits = limit; bits > 0; bits--) {
        for (int k = 0; k < per_length[bits]; k++) lengths[symbols[index++]] = (uint8_t)bits;
    }
}

/* Canonical codes, bit-reversed for deflate's least-significant-bit-first order. */
void cpng_canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    int per_length[MAX_BITS + 1] = {0};
    uint16_t next[MAX_BITS + 2];
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    uint16_t code = 0;
    for (int bits = 1; bits <= MAX_BITS; bits++) {
        code = (uint16_t)((code + per_length[bits - 1]) << 1);
        next[bits] = code;
    }
    for (int s = 0; s < count; s++) {
        int bits = lengths[s];
        if (!bits) continue;
        uint16_t value = next[bits]++, reversed = 0;
        for (int b = 0; b < bits; b++) reversed |= (uint16_t)(((value >> b) & 1) << (bits - 1 - b));
        codes[s] = reversed;
    }
}
