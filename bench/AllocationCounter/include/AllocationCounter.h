#ifndef PULSEBAR_ALLOCATION_COUNTER_H
#define PULSEBAR_ALLOCATION_COUNTER_H
/// Counts malloc/calloc/realloc calls in this process (the bench only), so a
/// benchmark can check that the per-frame path allocates nothing.
unsigned long allocation_count(void);
#endif
