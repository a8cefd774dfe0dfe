// The fuzz targets without libFuzzer: replays inputs through LLVMFuzzerTestOneInput, so the crashes a fuzz
// run found (tests/fuzz/regressions/<target>/) and a few seeds run in every build's CTest, gcc included.
// Arguments are files or folders (their files, sorted; names starting with '.', as a folder's .gitkeep,
// skipped). A missing argument, or no input at all, is a failure.
#include "FuzzInput.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

namespace fs = std::filesystem;

namespace {

void replay(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::cout << "replay " << path.string() << " (" << bytes.size() << " bytes)" << std::endl;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

} // namespace

int main(int argc, char** argv) {
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        if (fs::is_directory(arg)) {
            std::vector<fs::path> files;
            for (const auto& entry : fs::directory_iterator(arg))
                if (entry.is_regular_file() && entry.path().filename().string().front() != '.')
                    files.push_back(entry.path());
            std::sort(files.begin(), files.end());
            inputs.insert(inputs.end(), files.begin(), files.end());
        } else if (fs::exists(arg)) {
            inputs.push_back(arg);
        } else {
            std::cerr << "missing input " << arg.string() << std::endl;
            return 1;
        }
    }
    if (inputs.empty()) {
        std::cerr << "no inputs to replay" << std::endl;
        return 1;
    }
    for (const fs::path& input : inputs)
        replay(input);
    std::cout << inputs.size() << " inputs replayed" << std::endl;
    return 0;
}
