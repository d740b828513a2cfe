// Which process an object with native threads or locks was made in. fork() copies only the
// calling thread: an object inherited by a child (a DuckDB database, its worker threads gone) must
// neither be torn down there (joining threads that do not exist aborts) nor used (a lock held at
// the fork by a parent thread is held forever). Used by metadata::DuckSession; READER.md §11.
#pragma once

#include <cstdint>

namespace taco::process {

/// 0 in a process that was not forked from one running tacocore, then one more in each forked
/// child (a pthread_atfork child handler counts). Cheap (an atomic load): safe on read paths.
uint64_t fork_generation() noexcept;

/// True on the one thread a forked child began with: the thread that called fork() in its
/// parent, carrying that thread's thread-local state (GDAL's kept-alive connections among it).
/// False in a process that was not forked, and on every thread a child starts. Forks are counted
/// from the moment the library is loaded.
bool on_forking_thread() noexcept;

/// Remembers the process it was made in. Copy it into the object whose native state it guards.
class ForkOwner {
  public:
    ForkOwner() noexcept;
    /// True in a forked child of the process that made this object (and in its children).
    bool inherited() const noexcept { return fork_generation() != born_in_; }
    /// The process id this object was made in, for error messages.
    long owner_pid() const noexcept { return owner_pid_; }

  private:
    uint64_t born_in_;
    long owner_pid_;
};

}  // namespace taco::process
