// parallel_for: splits [begin, end) into chunks run by a process-wide pool of
// worker threads plus the calling thread. Ranges below `grain` elements run
// on the calling thread only, so tiny ops pay no synchronisation.
#pragma once

#include <cstdint>
#include <functional>

namespace pl::host {

// Elementwise work below this many elements stays on the calling thread.
inline constexpr std::int64_t kParallelGrain = 32768;

// Splits [begin, end) over the pool; the out-of-line half of parallel_for.
void parallel_for_chunks(std::int64_t begin, std::int64_t end, std::int64_t grain,
                         const std::function<void(std::int64_t, std::int64_t)> &fn);

// fn(chunk_begin, chunk_end) for disjoint chunks covering [begin, end);
// returns when all have run. fn must not throw. Small ranges call fn inline,
// so a tiny op builds no std::function (a heap allocation per op).
template <typename Fn>
void parallel_for(std::int64_t begin, std::int64_t end, std::int64_t grain, Fn &&fn) {
  if (end <= begin)
    return;
  if (end - begin < grain || end - begin < 2) {
    fn(begin, end);
    return;
  }
  parallel_for_chunks(begin, end, grain, fn);
}

// Threads that parallel_for uses, the caller included.
int parallel_threads();

} // namespace pl::host
