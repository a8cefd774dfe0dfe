#pragma once
// Byte offsets to line:column for the Python pipeline reader (core/python internal).

#include "core/common/Diagnostic.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::python {

/// Maps byte offsets of a text to 1-based line:column.
class LineIndex {
public:
    LineIndex(std::string_view text, std::string file) : m_file(std::move(file)) {
        m_starts.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                m_starts.push_back(i + 1);
    }
    SourceLocation at(std::size_t offset, std::size_t length = 0) const {
        auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
        std::size_t line = static_cast<std::size_t>(it - m_starts.begin());
        return {m_file, static_cast<int>(line), static_cast<int>(offset - m_starts[line - 1] + 1), offset,
                length};
    }

    /// The location of 1-based `line`:`column` (clamped to the text's lines).
    SourceLocation atLine(int line, int column) const {
        const std::size_t l =
            static_cast<std::size_t>(std::clamp(line, 1, static_cast<int>(m_starts.size())));
        return at(m_starts[l - 1] + static_cast<std::size_t>(std::max(column, 1) - 1));
    }

private:
    std::string m_file;
    std::vector<std::size_t> m_starts;
};

} // namespace cdc::python
