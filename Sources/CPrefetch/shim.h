/* A hint that memory at `address` will soon be read, so that the loads of a walk in an order memory does not follow
   (the grouping's seeds in priority order) overlap instead of waiting one after another. It changes no result. */
static inline void snapmap_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
