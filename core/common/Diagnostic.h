#pragma once
/// Expected user errors are values: a Diagnostic carries a code, a message and a source location.
/// Result<T> holds either a value or the Diagnostic that explains why there is none.

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace cdc {

/// A place in a source text. Offsets are UTF-8 byte offsets; line and column are 1-based
/// (column counts bytes, as QScintilla and SQLite do).
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    std::size_t offset = 0;
    std::size_t length = 0;

    bool valid() const { return line > 0; }
    bool operator==(const SourceLocation&) const = default;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code;    ///< stable machine-readable code, e.g. "PARSE", "NULL_KEY", "SQLITE"
    std::string message; ///< one sentence for a human, no trailing period needed
    SourceLocation location;

    static Diagnostic error(std::string code, std::string message, SourceLocation where = {}) {
        return {Severity::Error, std::move(code), std::move(message), std::move(where)};
    }
    static Diagnostic warning(std::string code, std::string message, SourceLocation where = {}) {
        return {Severity::Warning, std::move(code), std::move(message), std::move(where)};
    }

    /// `file:line:col: error: message`, or `error: message` when there is no position.
    std::string format() const;
};

std::string severityName(Severity s);

/// A value or the diagnostic explaining its absence. No exceptions for user errors.
template <class T> class [[nodiscard]] Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Diagnostic error) : m_state(std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_state); }
    const T& value() const& { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Diagnostic& error() const { return std::get<1>(m_state); }

private:
    std::variant<T, Diagnostic> m_state;
};

/// Result of an operation that produces nothing but may fail.
template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Diagnostic error) : m_error(std::move(error)), m_failed(true) {}
    static Result success() { return {}; }

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Diagnostic& error() const { return m_error; }

private:
    Diagnostic m_error;
    bool m_failed = false;
};

using Status = Result<void>;

/// Propagate a failed Result from the enclosing function.
#define CDC_TRY(expr)                                                                                        \
    do {                                                                                                     \
        if (auto cdc_try_result_ = (expr); !cdc_try_result_.ok())                                            \
            return cdc_try_result_.error();                                                                  \
    } while (0)

} // namespace cdc
