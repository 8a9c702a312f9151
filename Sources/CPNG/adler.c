/* Adler-32 of filtered rows, 32 bytes a step with AVX2 where the processor has it (zlib's, a byte at a time,
   elsewhere): per block, s1 gains the bytes' sum and s2 gains 32·s1 for each step before plus the bytes
   weighted 32…1 (the classic vector form, as in libdeflate and Chromium's zlib). */
#include "fastdeflate.h"
#include <zlib.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define ADLER_MOD 65521u
/* Steps of 32 bytes per block: s2 stays below 2^32 within a block of 5,536 bytes (zlib's NMAX is 5,552). */
#define STEPS_PER_BLOCK 173

#if defined(__x86_64__)
__attribute__((target("avx2"))) static uint32_t adler32_avx2(uint32_t adler, const uint8_t *data, size_t length) {
    uint32_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                             16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m256i ones = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
    while (length >= 32) {
        size_t steps = length / 32 < STEPS_PER_BLOCK ? length / 32 : STEPS_PER_BLOCK;
        __m256i sums = zero, earlier = zero, weighted = zero;
        for (size_t step = 0; step < steps; step++) {
            __m256i bytes = _mm256_loadu_si256((const __m256i *)(data + step * 32));
            earlier = _mm256_add_epi32(earlier, sums);
            sums = _mm256_add_epi32(sums, _mm256_sad_epu8(bytes, zero));
            weighted = _mm256_add_epi32(weighted, _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, weights), ones));
        }
        uint32_t lanes[8];
        _mm256_storeu_si256((__m256i *)lanes, sums);
        uint64_t sum = (uint64_t)lanes[0] + lanes[2] + lanes[4] + lanes[6];
        _mm256_storeu_si256((__m256i *)lanes, earlier);
        uint64_t before = (uint64_t)lanes[0] + lanes[2] + lanes[4] + lanes[6];
        _mm256_storeu_si256((__m256i *)lanes, weighted);
        uint64_t weights_sum = 0;
        for (int lane = 0; lane < 8; lane++) weights_sum += lanes[lane];
        s2 = (uint32_t)(((uint64_t)s2 + (uint64_t)s1 * 32 * steps + 32 * before + weights_sum) % ADLER_MOD);
        s1 = (uint32_t)(((uint64_t)s1 + sum) % ADLER_MOD);
        data += steps * 32;
        length -= steps * 32;
    }
    for (size_t index = 0; index < length; index++) {
        s1 += data[index];
        s2 += s1;
    }
    return ((s2 % ADLER_MOD) << 16) | (s1 % ADLER_MOD);
}
#endif

uint32_t cpng_adler32(uint32_t adler, const uint8_t *data, size_t length) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) return adler32_avx2(adler, data, length);
#endif
    return (uint32_t)adler32(adler, data, (uInt)length);
}
