#include "sim/sim_stream.h"

#include <utility>

#include <pl/sim.h>

#include "sim/sim_delay.h"

namespace pl::backend::sim_detail {

SimStream::SimStream() : worker_([this] { work(); }) {}

SimStream::~SimStream() { shutdown(); }

std::uint64_t SimStream::enqueue(std::function<void()> task) {
  std::unique_lock lock(mutex_);
  const std::uint64_t seq = ++enqueued_;
  if (stopped_) {
    // Process exit: the worker is gone, so the caller runs the task in order.
    lock.unlock();
    task();
    lock.lock();
    completed_ = seq;
    return seq;
  }
  queue_.push_back(Task{seq, std::move(task)});
  lock.unlock();
  work_ready_.notify_one();
  return seq;
}

std::uint64_t SimStream::last_enqueued() {
  std::lock_guard lock(mutex_);
  return enqueued_;
}

bool SimStream::done(std::uint64_t seq) {
  std::lock_guard lock(mutex_);
  return completed_ >= seq;
}

void SimStream::wait_until(std::uint64_t seq) {
  std::unique_lock lock(mutex_);
  // A synchronisation point: work held by the chaos switch may now run.
  if (released_ < seq) {
    released_ = seq;
    work_ready_.notify_one();
  }
  task_done_.wait(lock, [&] { return completed_ >= seq; });
  if (error_) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    std::rethrow_exception(error);
  }
}

bool SimStream::runnable_locked() const {
  if (queue_.empty())
    return false;
  return stopping_ || current_delay().mode != pl::sim::DelayMode::kUntilSynchronized ||
         queue_.front().seq <= released_;
}

void SimStream::notify_delay_changed() {
  std::lock_guard lock(mutex_);
  work_ready_.notify_one();
}

void SimStream::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return runnable_locked() || (stopping_ && queue_.empty()); });
    if (queue_.empty()) {
      stopped_ = true; // stopping, and everything has run: later work runs on its caller
      return;
    }
    Task task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    const pl::sim::Delay delay = current_delay();
    if (delay.mode == pl::sim::DelayMode::kLate)
      std::this_thread::sleep_for(delay.per_task);
    std::exception_ptr error;
    try {
      task.run();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !error_)
      error_ = error;
    completed_ = task.seq;
    task_done_.notify_all();
  }
}

void SimStream::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_)
      return;
    stopping_ = true;
  }
  work_ready_.notify_one();
  worker_.join();
}

} // namespace pl::backend::sim_detail
