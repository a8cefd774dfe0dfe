// The static reader of Python pipeline files on any text: tokenizer, parser, the recognizer of the
// declarative subset, the SQL it writes and that SQL's parse. Nothing of the text runs.
#include "FuzzInput.h"

#include "core/python/PythonPipelineReader.h"

using namespace cdc;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::text(data, size);
    (void)python::parsePythonPipeline(text, "fuzz.py");
    return 0;
}
