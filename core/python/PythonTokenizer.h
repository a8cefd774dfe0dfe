#pragma once
/// The tokenizer of the Python pipeline reader (core/python internal): names, strings (with where their
/// content starts, so SQL inside a literal maps back byte for byte), numbers, operators and logical lines.

#include "core/common/Diagnostic.h"
#include "core/python/LineIndex.h"

#include <string>
#include <string_view>
#include <vector>

namespace cdc::python {

enum class Tok { Name, String, Number, Op, Newline, End };

struct Token {
    Tok kind = Tok::End;
    std::string text;       ///< name / operator / number text; for strings the decoded value
    std::size_t offset = 0; ///< first byte of the token
    std::size_t length = 0;
    std::size_t valueOffset = 0; ///< strings: first byte of the content (after the quotes)
    bool rawString = true;       ///< strings: content maps 1:1 to source bytes (no escapes decoded)
    int indent = 0;              ///< Newline tokens: indentation of the next logical line
};

/// Splits a Python file into tokens; blank and comment lines vanish, brackets join physical lines.
class PythonTokenizer {
public:
    explicit PythonTokenizer(std::string_view text) : m_text(text) {}

    /// The tokens, ending with a Newline and an End token, or the first lexical error.
    Result<std::vector<Token>> run(const LineIndex& lines);

private:
    Result<Token> readString(std::size_t quotePos, std::size_t tokenStart, const LineIndex& lines,
                             const std::string& prefix);

    std::string_view m_text;
};

} // namespace cdc::python
