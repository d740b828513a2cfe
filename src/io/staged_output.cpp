#include "io/staged_output.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <set>
#include <system_error>

#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::io {
namespace {

fs::path sibling(const fs::path& target, const std::string& tag) {
    static std::atomic<unsigned> counter{0};
    // Built with append: GCC 12 reports a false -Wrestrict on `"." + std::string` chains.
    std::string name(1, '.');
    name.append(target.filename().string()).append(".").append(tag).append("-");
    name.append(std::to_string(::getpid())).append("-").append(std::to_string(counter++));
    return target.parent_path() / name;
}

std::mutex& pending_mutex() {
    static std::mutex m;
    return m;
}
std::set<fs::path>& pending() {
    static std::set<fs::path> p;
    return p;
}

// Staging paths `.NAME.partial-PID-N` left by a process that was killed (SIGKILL, power loss):
// removed by the next run that writes NAME, once their process is gone.
void remove_stale_staging(const fs::path& target) {
    const std::string prefix = "." + target.filename().string() + ".partial-";
    std::error_code ec;
    for (auto it = fs::directory_iterator(target.parent_path(), ec);
         !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = name.substr(prefix.size());
        const long pid = std::strtol(rest.c_str(), nullptr, 10);
        if (pid <= 0 || pid == ::getpid()) continue;
        if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
        std::error_code ignore;
        fs::remove_all(it->path(), ignore);
    }
}

}  // namespace

void remove_pending_staging() {
    std::lock_guard lock(pending_mutex());
    for (const fs::path& p : pending()) {
        std::error_code ec;
        fs::remove_all(p, ec);
    }
    pending().clear();
}

StagedOutput::StagedOutput(const fs::path& target, bool overwrite)
    : target_(fs::absolute(target).lexically_normal()), overwrite_(overwrite) {
    if (target_.filename().empty()) target_ = target_.parent_path();
    std::error_code ec;
    if (fs::symlink_status(target_, ec).type() != fs::file_type::not_found && !overwrite_) {
        throw IoError("output already exists: " + target_.string() +
                      " (choose another name, or ask to overwrite it)");
    }
    for (fs::path dir = target_.parent_path();
         !dir.empty() && fs::symlink_status(dir, ec).type() == fs::file_type::not_found;
         dir = dir.parent_path()) {
        created_dirs_.insert(created_dirs_.begin(), dir);
        if (dir == dir.root_path()) break;
    }
    fs::create_directories(target_.parent_path(), ec);
    if (ec)
        throw IoError("cannot create directory " + target_.parent_path().string() + ": " +
                      ec.message());
    remove_stale_staging(target_);
    staging_ = sibling(target_, "partial");
    std::lock_guard lock(pending_mutex());
    pending().insert(staging_);
}

StagedOutput::~StagedOutput() {
    std::lock_guard lock(pending_mutex());
    pending().erase(staging_);
    if (committed_) return;
    std::error_code ec;
    fs::remove_all(staging_, ec);  // best effort: we are already failing
    // Innermost first; fs::remove leaves a directory something else has written into.
    for (auto dir = created_dirs_.rbegin(); dir != created_dirs_.rend(); ++dir)
        fs::remove(*dir, ec);
}

void StagedOutput::commit() {
    std::lock_guard lock(pending_mutex());
    pending().erase(staging_);
    std::error_code ec;
    fs::path old;
    if (fs::symlink_status(target_, ec).type() != fs::file_type::not_found) {
        if (!overwrite_) throw IoError("output appeared while writing: " + target_.string());
        // One atomic swap where the file system has it: there is no moment at which the target
        // path holds nothing, whenever the process is killed.
        if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) ==
            0) {
            committed_ = true;
            fs::remove_all(staging_, ec);  // now the previous dataset
            return;
        }
        old = sibling(target_, "replaced");
        fs::rename(target_, old, ec);
        if (ec)
            throw IoError("cannot move existing " + target_.string() + " aside: " + ec.message());
    }
    fs::rename(staging_, target_, ec);
    if (ec) {
        std::error_code ignore;
        if (!old.empty()) fs::rename(old, target_, ignore);
        throw IoError("cannot rename " + staging_.string() + " to " + target_.string() + ": " +
                      ec.message());
    }
    committed_ = true;
    if (!old.empty()) fs::remove_all(old, ec);
}

std::string StagedOutput::as_target(std::string message) const {
    const std::string from = staging_.string(), to = target_.string();
    for (size_t at = message.find(from); at != std::string::npos;
         at = message.find(from, at + to.size())) {
        message.replace(at, from.size(), to);
    }
    return message;
}

std::string StagedOutput::failure(std::string message) const {
    message = as_target(std::move(message));
    if (message.find("nothing was written") == std::string::npos)
        message += " (nothing was written)";
    return message;
}

}  // namespace taco::io
