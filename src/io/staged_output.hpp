// Crash-safe output: a dataset is built under a hidden temporary name beside its target and
// renamed into place only when complete (DESIGN.md §5). Whatever fails before commit() leaves
// nothing behind, and an existing target is never replaced unless overwrite was asked.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace taco::io {

/// Removes every staging path still in progress (best effort). For a process about to end
/// without unwinding (a second Ctrl-C, a SIGTERM that the running work did not answer in time);
/// call from a normal thread, never from a signal handler.
void remove_pending_staging();

class StagedOutput {
  public:
    /// Checks the target (IoError if it exists and !overwrite, or its parent cannot be created)
    /// and reserves a staging path `<parent>/.<name>.partial-<pid>-<n>`.
    StagedOutput(const std::filesystem::path& target, bool overwrite);
    ~StagedOutput();  // removes the staging path unless committed
    StagedOutput(const StagedOutput&) = delete;
    StagedOutput& operator=(const StagedOutput&) = delete;

    const std::filesystem::path& staging() const { return staging_; }
    const std::filesystem::path& target() const { return target_; }
    /// `message` with every mention of the staging path replaced by the target: the user never
    /// sees the hidden name, only the output they asked for.
    std::string as_target(std::string message) const;
    /// as_target(message), saying "(nothing was written)" unless it already does (an
    /// interruption's message does): what a writer reports when it fails before commit().
    std::string failure(std::string message) const;
    /// Moves the staging path onto the target. With overwrite, an existing target is moved aside
    /// first and removed only after the new one is in place.
    void commit();

  private:
    std::filesystem::path target_;
    std::filesystem::path staging_;
    bool overwrite_;
    bool committed_ = false;
    // The directories the constructor made for the target (outermost first), removed again,
    // when empty, if nothing is committed: a failed write leaves no trace.
    std::vector<std::filesystem::path> created_dirs_;
};

}  // namespace taco::io
