#pragma once
/// A table-valued function call of a query with its literal arguments, as the SQL front end hands it to
/// whoever binds the query (`read_files('/Volumes/...', format => 'csv', header => true)`).

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"

#include <string>
#include <string_view>
#include <vector>

namespace cdc {

struct TableFunctionCall {
    struct Argument {
        std::string name;    ///< `name => value`; empty for a positional argument
        Value value;         ///< the literal's value (BOOLEAN as 0/1)
        bool literal = true; ///< false: an expression, which file functions refuse
        std::string text;    ///< as written, for messages
        SourceLocation location;
        bool operator==(const Argument&) const = default;
    };
    std::string function; ///< lower case
    std::vector<Argument> arguments;
    SourceLocation location;
    bool operator==(const TableFunctionCall&) const = default;
};

} // namespace cdc
