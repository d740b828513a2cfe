// process::run_off_forking_thread: inline everywhere except on the thread a forked child began
// with, where the job runs on one kept helper thread of the child, and its exceptions come back
// (READER.md §11; the end-to-end test with a real server is tests/remote/test_remote_fork.py).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <thread>

#include "process/fork_generation.hpp"
#include "process/fork_relay.hpp"

using namespace taco;

namespace {

// Runs `child` in a forked child and exits with its code (a signal: 100 + its number).
template <class Child>
[[noreturn]] void in_forked_child(Child child) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(20);  // a hang fails the test instead of stalling it
        ::_exit(child());
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) ::_exit(90);
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status));
}

std::thread::id ran_on() {
    std::thread::id id;
    process::run_off_forking_thread([&] { id = std::this_thread::get_id(); });
    return id;
}

}  // namespace

TEST(ForkRelay, RunsInlineInAProcessThatWasNotForked) {
    EXPECT_FALSE(process::on_forking_thread());
    EXPECT_EQ(ran_on(), std::this_thread::get_id());
}

TEST(ForkRelay, AForkedChildRunsItOnOneHelperThread) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(in_forked_child([] {
                    if (!process::on_forking_thread()) return 1;
                    const std::thread::id first = ran_on();
                    if (first == std::this_thread::get_id()) return 2;
                    if (ran_on() != first) return 3;  // kept, with its connections
                    return 0;
                }),
                ::testing::ExitedWithCode(0), "");
}

TEST(ForkRelay, ThreadsAForkedChildStartsRunItInline) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(in_forked_child([] {
                    int code = 0;
                    std::thread([&] {
                        if (process::on_forking_thread()) code = 1;
                        if (ran_on() != std::this_thread::get_id()) code = 2;
                    }).join();
                    return code;
                }),
                ::testing::ExitedWithCode(0), "");
}

TEST(ForkRelay, AnExceptionReachesTheCallerAndTheHelperServesOn) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(in_forked_child([] {
                    try {
                        process::run_off_forking_thread(
                            [] { throw std::runtime_error("range read failed"); });
                        return 1;
                    } catch (const std::runtime_error& e) {
                        if (std::string(e.what()) != "range read failed") return 2;
                    }
                    int ran = 0;
                    process::run_off_forking_thread([&] { ++ran; });
                    return ran == 1 ? 0 : 3;
                }),
                ::testing::ExitedWithCode(0), "");
}

TEST(ForkRelay, AGrandchildMakesItsOwnHelper) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(in_forked_child([] {
                    if (ran_on() == std::this_thread::get_id()) return 1;
                    // The child's helper does not exist in the grandchild: handing it the job
                    // would wait forever (the alarm fails the case).
                    in_forked_child([] { return ran_on() != std::this_thread::get_id() ? 0 : 1; });
                }),
                ::testing::ExitedWithCode(0), "");
}

TEST(ForkRelay, ForksAreCountedFromTheStartOfTheProcess) {
    // Nothing of tacocore has run in this process (a death test re-runs the binary): the counter
    // was registered when the library loaded, so the child still knows it is a fork.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(in_forked_child([] { return process::on_forking_thread() ? 0 : 1; }),
                ::testing::ExitedWithCode(0), "");
}
