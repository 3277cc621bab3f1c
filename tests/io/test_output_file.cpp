// The output layer (src/io/output_file.h): every output gets what was
// written for it, whole, or the command is refused before any work.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/bad_input.h"
#include "io/output_file.h"

using namespace cidsim;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

struct ScratchDir {
    std::string path;
    ScratchDir() {
        std::string tmpl = (fs::temp_directory_path() / "cidsim-output-test.XXXXXX").string();
        path = ::mkdtemp(tmpl.data());
    }
    ~ScratchDir() { fs::remove_all(path); }
};

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("two outputs whose long names share their start each get their own text") {
    ScratchDir dir;
    // Both temporary names are cut to fit NAME_MAX at the same length.
    const std::string stem = dir.path + "/" + std::string(NAME_MAX - 5, 'a');
    for (const char* suffix : {".json", ".stat"}) std::ofstream(stem + suffix) << "old\n";
    claim_output("--out", stem + ".json");
    claim_output("--stats", stem + ".stat");
    OutputBatch batch;
    batch.add(stem + ".json", "the result\n");
    batch.add(stem + ".stat", "the stats\n");
    batch.write();
    CHECK(read(stem + ".json") == "the result\n");
    CHECK(read(stem + ".stat") == "the stats\n");
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++files;
    CHECK(files == 2);  // no temporary left
}

TEST_CASE("an output whose file name is too long is refused before any work") {
    ScratchDir dir;
    const std::string name = dir.path + "/" + std::string(NAME_MAX + 1, 'b');
    REQUIRE_THROWS_AS(claim_output("--out", name), BadInput);
    REQUIRE_THROWS_WITH(claim_output("--out", name), Contains("File name too long"));
    CHECK(fs::is_empty(dir.path));
}
