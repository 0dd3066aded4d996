#include "host/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <cblas.h>

#include <pl/error.h>
#include <pl/parallel.h>

namespace pl::host {
namespace {

class ThreadPool {
public:
  ThreadPool() {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < hardware; ++i)
      workers_.emplace_back([this] { work(); });
  }

  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread &worker : workers_)
      worker.join();
  }

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs the job on the pool; returns false (running nothing) when another
  // thread's job holds the pool, so that the caller runs it alone instead.
  bool run(std::int64_t begin, std::int64_t end, std::int64_t chunk,
           const std::function<void(std::int64_t, std::int64_t)> &fn) {
    std::unique_lock job_lock(job_mutex_, std::try_to_lock);
    if (!job_lock.owns_lock())
      return false;
    {
      std::lock_guard lock(mutex_);
      fn_ = &fn;
      begin_ = begin;
      end_ = end;
      chunk_ = chunk;
      next_.store(begin);
      pending_ = static_cast<int>(workers_.size());
      ++generation_;
    }
    wake_.notify_all();
    run_chunks();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    fn_ = nullptr;
    return true;
  }

private:
  void run_chunks() {
    for (;;) {
      const std::int64_t start = next_.fetch_add(chunk_);
      if (start >= end_)
        return;
      (*fn_)(start, std::min(end_, start + chunk_));
    }
  }

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_)
          return;
        seen = generation_;
      }
      run_chunks();
      std::lock_guard lock(mutex_);
      if (--pending_ == 0)
        done_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex job_mutex_; // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stopping_ = false;
  std::uint64_t generation_ = 0;
  int pending_ = 0;
  const std::function<void(std::int64_t, std::int64_t)> *fn_ = nullptr;
  std::int64_t begin_ = 0;
  std::int64_t end_ = 0;
  std::int64_t chunk_ = 1;
  std::atomic<std::int64_t> next_{0};
};

ThreadPool &pool() {
  static ThreadPool instance;
  return instance;
}

// The limit set by pl::set_num_threads; 0 means all of the pool.
std::atomic<int> thread_limit{0};

} // namespace

int parallel_threads() {
  const int limit = thread_limit.load(std::memory_order_relaxed);
  const int available = pool().threads();
  return limit == 0 ? available : std::min(limit, available);
}

void parallel_for_chunks(std::int64_t begin, std::int64_t end, std::int64_t grain,
                         const std::function<void(std::int64_t, std::int64_t)> &fn) {
  const std::int64_t count = end - begin;
  ThreadPool &threads = pool();
  const std::int64_t chunks =
      std::min<std::int64_t>(parallel_threads(), std::max<std::int64_t>(1, count / grain));
  if (chunks < 2) {
    fn(begin, end);
    return;
  }
  const std::int64_t chunk = (count + chunks - 1) / chunks;
  if (!threads.run(begin, end, chunk, fn))
    fn(begin, end);
}

} // namespace pl::host

namespace pl {

void set_num_threads(int n) {
  PL_CHECK(n >= 1, Error, "set_num_threads: expected a positive number of threads, but got ", n);
  host::thread_limit.store(n, std::memory_order_relaxed);
  openblas_set_num_threads(n);
}

int get_num_threads() { return host::parallel_threads(); }

} // namespace pl
