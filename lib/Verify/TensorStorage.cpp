//===- TensorStorage.cpp - Storage of the evaluator's tensors -------------===//
//
// Large tensor buffers are aligned to huge pages and kept for reuse after
// they are freed (TensorAllocator in Interpreter.h).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Interpreter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <sys/mman.h>

using namespace mirage::verify;

namespace {
/// Freed large buffers kept for reuse. Tests allocate the same big tensors
/// again and again; handing back memory that is already mapped avoids the
/// page faults and page clearing that otherwise cost more than the
/// arithmetic. Bounded to kMaxCachedBytes.
struct StorageCache {
  static constexpr size_t kMaxCachedBytes = size_t(2) << 30;
  std::mutex mutex;
  std::multimap<size_t, void *> free;
  size_t cachedBytes = 0;
  llvm::DenseMap<void *, size_t> sizes;
};
StorageCache &storageCache() {
  static StorageCache *cache = new StorageCache();
  return *cache;
}
constexpr size_t kHugePage = size_t(2) << 20;
} // namespace

void *mirage::verify::allocateTensorStorage(size_t bytes) {
  if (bytes < 2 * kHugePage) {
    void *p = std::malloc(bytes ? bytes : 1);
    if (!p)
      llvm::report_bad_alloc_error("tensor storage");
    return p;
  }
  size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  StorageCache &cache = storageCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.free.find(rounded);
    if (it != cache.free.end()) {
      void *p = it->second;
      cache.free.erase(it);
      cache.cachedBytes -= rounded;
      return p;
    }
  }
  void *p = std::aligned_alloc(kHugePage, rounded);
  if (!p)
    llvm::report_bad_alloc_error("tensor storage");
  // Only a hint: without transparent huge pages this is a no-op.
  (void)madvise(p, rounded, MADV_HUGEPAGE);
  std::lock_guard<std::mutex> lock(storageCache().mutex);
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
      if (cache.cachedBytes + size <= StorageCache::kMaxCachedBytes) {
        cache.free.insert({size, ptr});
        cache.cachedBytes += size;
        return;
      }
      cache.sizes.erase(it);
    }
  }
  // malloc and aligned_alloc memory are both released with free().
  std::free(ptr);
}

/// The seed of the stream for argument `i`.
