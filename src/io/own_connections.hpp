// GDAL reads of a network path on connections of this process: in a forked child, the thread it
// began with carries its parent's kept-alive connections, so such a read moves to a thread of the
// child (process/fork_relay.hpp, READER.md §11). Everything else runs where it is called.
#pragma once

#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "io/location.hpp"
#include "process/fork_relay.hpp"

namespace taco::io {

/// `work()`, for GDAL work that opens `gdal_path`; its result or its exception.
template <class Work>
auto with_own_connections(std::string_view gdal_path, Work&& work) -> decltype(work()) {
    using Result = decltype(work());
    if (!reaches_network(gdal_path)) return work();
    if constexpr (std::is_void_v<Result>) {
        process::run_off_forking_thread(work);
    } else {
        std::optional<Result> out;
        process::run_off_forking_thread([&] { out.emplace(work()); });
        return std::move(*out);
    }
}

}  // namespace taco::io
