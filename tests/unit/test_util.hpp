// Small helpers shared by the unit tests: catching an expected exception's message and checking
// that a message mentions what it must.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace taco::test {

/// The message of the `E` that `fn` throws (a test failure when it throws nothing).
template <typename E, typename Fn>
std::string error_of(Fn&& fn) {
    try {
        fn();
    } catch (const E& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an exception";
    return {};
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace taco::test
