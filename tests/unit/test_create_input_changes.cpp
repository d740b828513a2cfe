// Faults while writing (hardening): a sample file that changes size between the moment its
// Sample was made (its size is recorded then) and the copy is an IoError naming the sample and
// the file, and nothing is left at the output or beside it. Deterministic: the file is changed
// between Sample::file and create, where the CLI's race (tests/cli/test_cli_faults.py) may miss.
#include "reader_test_util.hpp"

namespace taco::test {
namespace {

Taco taco_of(const fs::path& file) {
    std::vector<Sample> samples;
    samples.push_back(Sample::bytes("a", "first sample"));
    samples.push_back(Sample::file("b", file));
    return Taco(Tortilla(std::move(samples)), test_collection());
}

TEST(CreateInputChanges, FileThatShrinksOrGrowsIsAnErrorAndNothingIsLeft) {
    for (const std::string output : {"ds.tacozip", "ds"}) {
        for (const size_t now : {size_t{100}, size_t{5000}}) {  // recorded: 1000 bytes
            SCOPED_TRACE(output + ", file now " + std::to_string(now) + " bytes");
            TempDir dir;
            const fs::path file = dir / "input.bin";
            spit(file, std::string(1000, 'x'));
            const Taco taco = taco_of(file);
            spit(file, std::string(now, 'y'));
            const std::string msg = error_of<IoError>([&] { create(taco, dir / output); });
            EXPECT_TRUE(contains(msg, file.string())) << msg;
            EXPECT_TRUE(contains(msg, "changed size")) << msg;
            EXPECT_TRUE(contains(msg, "expected 1000 bytes")) << msg;
            // Only the input remains: no output, no staging directory or partial file.
            std::vector<std::string> left;
            for (const auto& e : fs::directory_iterator(dir.path()))
                left.push_back(e.path().filename().string());
            EXPECT_EQ(left, std::vector<std::string>{"input.bin"});
        }
    }
}

}  // namespace
}  // namespace taco::test
