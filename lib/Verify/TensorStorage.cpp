//===- TensorStorage.cpp - Storage of the evaluator's tensors -------------===//
//
// Large tensor buffers are aligned to huge pages and kept for reuse after
// they are freed (TensorAllocator in Interpreter.h).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Interpreter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unistd.h>

using namespace mirage::verify;

namespace {
/// Freed large buffers kept for reuse. Tests allocate the same big tensors
/// again and again (each field test, each float distribution); handing back
/// memory that is already mapped avoids the page faults, which on a virtual
/// machine cost about a second per GiB, more than the arithmetic. A request
/// takes the smallest cached buffer that holds it if that is at most twice
/// its size. Bounded to a quarter of the physical memory (at least 2 GiB).
struct StorageCache {
  std::mutex mutex;
  std::multimap<size_t, void *> free;
  size_t cachedBytes = 0;
  size_t maxCachedBytes = 0;
  llvm::DenseMap<void *, size_t> sizes;
};
StorageCache &storageCache() {
  static StorageCache *cache = [] {
    auto *c = new StorageCache();
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    size_t physical =
        pages > 0 && pageSize > 0 ? size_t(pages) * size_t(pageSize) : 0;
    c->maxCachedBytes = std::max(size_t(2) << 30, physical / 4);
    return c;
  }();
  return *cache;
}
/// Granule of the cached sizes; smaller buffers come from malloc.
constexpr size_t kGranule = size_t(2) << 20;
} // namespace

void *mirage::verify::allocateTensorStorage(size_t bytes) {
  if (bytes < 2 * kGranule) {
    void *p = std::malloc(bytes ? bytes : 1);
    if (!p)
      llvm::report_bad_alloc_error("tensor storage");
    return p;
  }
  size_t rounded = (bytes + kGranule - 1) / kGranule * kGranule;
  StorageCache &cache = storageCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.free.lower_bound(rounded);
    if (it != cache.free.end() && it->first <= 2 * rounded) {
      void *p = it->second;
      cache.cachedBytes -= it->first;
      cache.free.erase(it);
      return p;
    }
  }
  // No madvise(MADV_HUGEPAGE): with the kernel's default defrag setting it
  // makes every fault try to compact memory, measured 1-5x slower here.
  void *p = std::aligned_alloc(kGranule, rounded);
  if (!p)
    llvm::report_bad_alloc_error("tensor storage");
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.sizes[p] = rounded;
  return p;
}

void mirage::verify::freeTensorStorage(void *ptr) {
  if (!ptr)
    return;
  StorageCache &cache = storageCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.sizes.find(ptr);
    if (it != cache.sizes.end()) {
      size_t size = it->second;
      // The buffer just freed is the likeliest to be asked for again (the
      // same shapes come back in the next test of the same programs), so
      // cached ones make room for it, the smallest first.
      while (size <= cache.maxCachedBytes &&
             cache.cachedBytes + size > cache.maxCachedBytes &&
             !cache.free.empty()) {
        auto smallest = cache.free.begin();
        cache.cachedBytes -= smallest->first;
        cache.sizes.erase(smallest->second);
        std::free(smallest->second);
        cache.free.erase(smallest);
      }
      if (cache.cachedBytes + size <= cache.maxCachedBytes) {
        cache.free.insert({size, ptr});
        cache.cachedBytes += size;
        return;
      }
      cache.sizes.erase(ptr);
    }
  }
  // malloc and aligned_alloc memory are both released with free().
  std::free(ptr);
}
