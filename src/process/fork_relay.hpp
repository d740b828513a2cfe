// Network I/O off the thread a forked child inherited. GDAL keeps each thread's kept-alive HTTP
// connections (curl handles, their sockets) in that thread's own storage. fork() copies the
// calling thread with that storage, and the child shares the parent's sockets: a request the
// child sends from that thread goes out on the parent's connection, and the two processes read
// each other's responses. Threads the child starts hold no connections of the parent, so the
// network I/O of the forking thread runs on one such thread instead (READER.md §11).
#pragma once

#include <functional>

namespace taco::process {

/// Runs `job` on the calling thread, unless that thread is the one a forked child began with
/// (process::on_forking_thread()): then on a helper thread this process started, kept for its
/// later calls so its connections stay alive, while the caller waits. An exception thrown by
/// `job` reaches the caller.
void run_off_forking_thread(const std::function<void()>& job);

}  // namespace taco::process
