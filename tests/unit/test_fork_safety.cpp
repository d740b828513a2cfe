// A DuckDB session inherited through fork(): the child may destroy it and gets a clear error when
// it uses it, never std::terminate (READER.md §11). Each case forks from a fresh process (a death
// test re-runs the binary), so that the parent side holds exactly the threads the case made.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "metadata/duckdb_session.hpp"
#include "process/fork_generation.hpp"
#include "raster/decode_ahead.hpp"
#include "taco/errors.hpp"

using namespace taco;

namespace {

// Runs `child` in a forked child of a process whose session has run a parallel query (DuckDB's
// worker threads exist), after the child started and joined a thread of its own: that thread
// reuses the memory of a parent thread that was not copied, which is what made joining DuckDB's
// threads abort. Exits with the child's exit code (its signal + 100 when killed).
template <class Child>
[[noreturn]] void fork_with_a_live_session(Child child) {
    auto session = std::make_unique<metadata::DuckSession>(2);
    session->query_scalar("SELECT sum(i) FROM range(1000000) t(i)");
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(20);  // a hang fails the test instead of stalling it
        std::thread([] {}).join();
        ::_exit(child(session));
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) ::_exit(90);
    session.reset();  // the parent still closes its own database
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status));
}

}  // namespace

TEST(ForkSafety, AChildDestroysAnInheritedSession) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(fork_with_a_live_session([](std::unique_ptr<metadata::DuckSession>& s) {
                    s.reset();
                    return 0;
                }),
                ::testing::ExitedWithCode(0), "");
}

TEST(ForkSafety, AChildUsingAnInheritedSessionGetsAQueryError) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(fork_with_a_live_session([](std::unique_ptr<metadata::DuckSession>& s) {
                    try {
                        s->query_scalar("SELECT 1");
                        return 1;  // ran: DuckDB was used without its threads
                    } catch (const QueryError& e) {
                        const std::string what = e.what();
                        if (what.find("fork()") == std::string::npos ||
                            what.find("load() again") == std::string::npos)
                            return 2;
                    }
                    metadata::DuckSession fresh;  // the child's own database works
                    return fresh.query_scalar("SELECT 41 + 1") == "42" ? 0 : 3;
                }),
                ::testing::ExitedWithCode(0), "");
}

TEST(ForkSafety, TheGenerationCountsForksInTheChildOnly) {
    const process::ForkOwner owner;
    EXPECT_FALSE(owner.inherited());
    EXPECT_EQ(owner.owner_pid(), static_cast<long>(::getpid()));
    const uint64_t before = process::fork_generation();
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(owner.inherited() && process::fork_generation() == before + 1 ? 0 : 1);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(process::fork_generation(), before);
    EXPECT_FALSE(owner.inherited());
}

namespace {

// A DecodeAhead whose workers wait for room (window 1, 4 paths, one handed out) when the process
// forks; the child starts a thread, is refused the next raster, and destroys the iterator.
[[noreturn]] void fork_with_decoders_waiting() {
    const std::string tif =
        std::string(TACO_FIXTURES_DIR) + "/tacotoolbox/geotiffs/single_band_128x128.tif";
    auto it = std::make_unique<raster::DecodeAhead>(std::vector<std::string>(4, tif), 2, 1);
    while (!it->next(std::chrono::milliseconds(50))) {
    }
    ::usleep(20000);  // the workers fill the window and wait on it
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(20);
        std::thread([] {}).join();
        int code = 0;
        try {
            it->next(std::chrono::milliseconds(50));
            code = 1;
        } catch (const IoError& e) {
            if (std::string(e.what()).find("fork()") == std::string::npos) code = 2;
        }
        if (it->done()) code = 3;
        it.reset();
        ::_exit(code);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) ::_exit(90);
    it.reset();  // the parent still stops and joins its own workers
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status));
}

}  // namespace

TEST(ForkSafety, AChildRefusesAndDropsAnInheritedDecodeAhead) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(fork_with_decoders_waiting(), ::testing::ExitedWithCode(0), "");
}
