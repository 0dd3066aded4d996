// A sim stream: a FIFO of work run in order by the stream's own worker
// thread, so that sim is asynchronous as a GPU is. Work is queued by the
// calling thread and returns at once; synchronize() waits for it. Every
// task gets a sequence number; an event is a sequence number on a stream.
//
// The chaos switch (pl::sim::set_delay, PL_SIM_DELAY) makes the worker run
// each task late, or hold all work until a synchronisation asks for it, so a
// missing synchronisation shows in a test every time rather than by chance.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace pl::backend::sim_detail {

class SimStream {
public:
  SimStream();
  ~SimStream();
  SimStream(const SimStream &) = delete;
  SimStream &operator=(const SimStream &) = delete;

  // Queues `task` after the work queued so far; returns its sequence number.
  // After shutdown (process exit) the task runs at once on the caller.
  std::uint64_t enqueue(std::function<void()> task);
  // Waits until task `seq` and all before it have run. Rethrows the first
  // error a task threw since the last synchronisation.
  void wait_until(std::uint64_t seq);
  void synchronize() { wait_until(last_enqueued()); }
  bool done(std::uint64_t seq);
  bool idle() { return done(last_enqueued()); }
  std::uint64_t last_enqueued();

  // Drains the queue and joins the worker; later work runs on the caller.
  void shutdown();
  // Wakes the worker after the delay setting changed.
  void notify_delay_changed();

private:
  struct Task {
    std::uint64_t seq;
    std::function<void()> run;
  };
  void work();
  bool runnable_locked() const;

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable task_done_;
  std::deque<Task> queue_;
  std::uint64_t enqueued_ = 0;
  std::uint64_t completed_ = 0;
  // Under the hold-until-synchronised delay: tasks up to this one may run.
  std::uint64_t released_ = 0;
  std::exception_ptr error_;
  bool stopping_ = false;
  bool stopped_ = false;
  std::thread worker_;
};

} // namespace pl::backend::sim_detail
