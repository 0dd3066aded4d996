#include "core/pinned_block_cache.h"

#include <algorithm>
#include <bit>
#include <new>

#include "core/internal.h"

namespace pl::backend {
namespace {

constexpr std::size_t kMinBlockBytes = 512;
constexpr std::align_val_t kAlignment{64};

std::size_t size_class(std::size_t bytes) { return std::bit_ceil(std::max(bytes, kMinBlockBytes)); }

} // namespace

PinnedBlockCache::Memory PinnedBlockCache::host_memory() {
  return {[](std::size_t bytes) {
            void *block = ::operator new(bytes, kAlignment, std::nothrow);
            if (block == nullptr)
              pl::detail::fail<AllocationError>("cannot allocate ", bytes,
                                                " bytes of pinned host memory: out of memory");
            return block;
          },
          [](void *block) { ::operator delete(block, kAlignment); }};
}

void PinnedBlockCache::reclaim_completed() {
  std::erase_if(awaiting_, [&](char *base) {
    Block &block = blocks_.at(base);
    std::erase_if(block.pending, [](const std::shared_ptr<StreamEvent> &e) { return e->done(); });
    if (!block.pending.empty())
      return false;
    idle_[block.size].push_back(base);
    return true;
  });
}

void *PinnedBlockCache::allocate(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  std::lock_guard lock(mutex_);
  reclaim_completed();
  if (auto bin = idle_.find(size); bin != idle_.end() && !bin->second.empty()) {
    char *base = bin->second.back();
    bin->second.pop_back();
    blocks_.at(base).in_use = true;
    return base;
  }
  auto *data = static_cast<char *>(memory_.pin(size));
  blocks_.emplace(data, Block{size, true, {}});
  return data;
}

void PinnedBlockCache::deallocate(void *ptr) noexcept {
  std::lock_guard lock(mutex_);
  const auto found = blocks_.find(static_cast<char *>(ptr));
  if (found == blocks_.end())
    return;
  found->second.in_use = false;
  awaiting_.push_back(found->first);
}

std::map<char *, PinnedBlockCache::Block>::iterator
PinnedBlockCache::live_block_of(const void *ptr) {
  auto *const address = static_cast<char *>(const_cast<void *>(ptr));
  auto after = blocks_.upper_bound(address);
  if (after == blocks_.begin())
    return blocks_.end();
  const auto found = std::prev(after);
  if (!found->second.in_use || address >= found->first + found->second.size)
    return blocks_.end();
  return found;
}

bool PinnedBlockCache::record_use(const void *ptr, std::shared_ptr<StreamEvent> copy_done) {
  std::lock_guard lock(mutex_);
  const auto found = live_block_of(ptr);
  if (found == blocks_.end())
    return false;
  found->second.pending.push_back(std::move(copy_done));
  return true;
}

void PinnedBlockCache::empty_cache() {
  std::lock_guard lock(mutex_);
  reclaim_completed();
  for (auto &[size, bases] : idle_) {
    for (char *base : bases) {
      memory_.unpin(base);
      blocks_.erase(base);
    }
  }
  idle_.clear();
}

} // namespace pl::backend
