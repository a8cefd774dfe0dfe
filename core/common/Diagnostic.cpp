#include "core/common/Diagnostic.h"

namespace cdc {

std::string severityName(Severity s) {
    switch (s) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}

std::string Diagnostic::format() const {
    std::string out;
    if (location.valid()) {
        out += location.file.empty() ? std::string("<input>") : location.file;
        out += ':' + std::to_string(location.line) + ':' + std::to_string(location.column) + ": ";
    }
    out += severityName(severity) + ": " + message;
    return out;
}

} // namespace cdc
