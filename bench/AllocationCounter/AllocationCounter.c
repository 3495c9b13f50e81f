// Interposes the allocator for the benchmark binary only: every call is counted
// and forwarded to glibc's own implementation.
#include <stddef.h>
#include <stdatomic.h>
#include "AllocationCounter.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static atomic_ulong counter;

void *malloc(size_t size) {
  atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  return __libc_realloc(pointer, size);
}

unsigned long allocation_count(void) {
  return atomic_load_explicit(&counter, memory_order_relaxed);
}
