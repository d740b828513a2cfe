#include "io/staged_output.hpp"

#include <unistd.h>

#include <atomic>
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

}  // namespace

StagedOutput::StagedOutput(const fs::path& target, bool overwrite)
    : target_(fs::absolute(target).lexically_normal()), overwrite_(overwrite) {
    if (target_.filename().empty()) target_ = target_.parent_path();
    std::error_code ec;
    if (fs::symlink_status(target_, ec).type() != fs::file_type::not_found && !overwrite_) {
        throw IoError("output already exists: " + target_.string() +
                      " (choose another name, or ask to overwrite it)");
    }
    fs::create_directories(target_.parent_path(), ec);
    if (ec)
        throw IoError("cannot create directory " + target_.parent_path().string() + ": " +
                      ec.message());
    staging_ = sibling(target_, "partial");
}

StagedOutput::~StagedOutput() {
    if (committed_) return;
    std::error_code ec;
    fs::remove_all(staging_, ec);  // best effort: we are already failing
}

void StagedOutput::commit() {
    std::error_code ec;
    fs::path old;
    if (fs::symlink_status(target_, ec).type() != fs::file_type::not_found) {
        if (!overwrite_) throw IoError("output appeared while writing: " + target_.string());
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

}  // namespace taco::io
