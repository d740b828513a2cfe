// Whether a Dataset, and everything derived from it, may still be read (issue 18 item 11).
//
// Dataset::close() marks its Lifetime closed. A view made from it (sql(), level(), the filters,
// concat()) gets a Lifetime whose parents include it, and a DataFrame shares the Lifetime of the
// view it came from, as do the frames its read() returns: so closing a dataset closes every view,
// frame and child frame taken from it, while the views it was made from stay open. Closing only
// sets a flag; nothing is freed under a read running on another thread, which completes, and
// every read that starts afterwards throws ClosedError.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace taco::query {

class Lifetime {
  public:
    /// `id` names the dataset in the error; `parents` are the lifetimes this one derives from.
    explicit Lifetime(std::string id, std::vector<std::shared_ptr<const Lifetime>> parents = {});

    /// A lifetime derived from this one (closed when this one is).
    static std::shared_ptr<Lifetime> derived(const std::shared_ptr<const Lifetime>& parent);

    void close() noexcept { closed_.store(true, std::memory_order_release); }
    /// True once this lifetime or any it derives from was closed.
    bool closed() const noexcept;
    /// ClosedError naming the dataset and `what` was attempted, when closed().
    void check(const char* what) const;

  private:
    std::string id_;
    std::vector<std::shared_ptr<const Lifetime>> parents_;
    std::atomic<bool> closed_{false};
};

}  // namespace taco::query
