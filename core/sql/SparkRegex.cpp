// Java regular expressions on PCRE2. std::regex recursed once per character and crashed on long values;
// PCRE2 keeps its backtracking state on the heap (interpreter) or on a growable JIT stack, both bounded.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "core/sql/SparkRegex.h"

#include <pcre2.h>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace cdc::sql {

namespace {

// Bounds on one match attempt. The match limit stops catastrophic backtracking within a fraction of a
// second; the depth and heap limits (interpreter) and the JIT stack bound memory for values of any length.
constexpr std::uint32_t matchLimit = 10'000'000;
constexpr std::uint32_t depthLimit = 5'000'000;
constexpr std::uint32_t heapLimitKiB = 512 * 1024;
constexpr std::size_t jitStackStart = 32 * 1024;
constexpr std::size_t jitStackMax = 256 * 1024 * 1024;

/// One JIT stack per thread, reserved lazily: a SQL function runs one match at a time on its thread.
pcre2_jit_stack* threadJitStack() {
    struct Holder {
        pcre2_jit_stack* stack = pcre2_jit_stack_create(jitStackStart, jitStackMax, nullptr);
        ~Holder() { pcre2_jit_stack_free(stack); }
    };
    thread_local Holder holder;
    return holder.stack;
}

std::string pcreMessage(int code) {
    PCRE2_UCHAR buffer[256];
    const int n = pcre2_get_error_message(code, buffer, sizeof buffer);
    return n < 0 ? "error " + std::to_string(code) : std::string(reinterpret_cast<const char*>(buffer));
}

std::size_t codePointLength(std::string_view s, std::size_t at) {
    const auto c = static_cast<unsigned char>(s[at]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    return std::min(n, s.size() - at);
}

std::size_t codePoints(std::string_view s) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); i += codePointLength(s, i))
        ++n;
    return n;
}

/// The start of a long value, for an error message that must stay readable.
std::string excerpt(std::string_view s) {
    std::size_t end = 0;
    for (int chars = 0; end < s.size() && chars < 20; ++chars)
        end += codePointLength(s, end);
    return "'" + std::string(s.substr(0, end)) + (end < s.size() ? "...'" : "'");
}

} // namespace

struct SparkRegex::Compiled {
    pcre2_code* code = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_match_data* data = nullptr;
    ~Compiled() {
        pcre2_match_data_free(data);
        pcre2_match_context_free(context);
        pcre2_code_free(code);
    }
};

Result<std::unique_ptr<SparkRegex>> SparkRegex::compile(std::string_view pattern, std::string function) {
    auto compiled = std::make_unique<Compiled>();
    pcre2_compile_context* cc = pcre2_compile_context_create(nullptr);
    // Java's line terminators as far as PCRE2 offers them (`.` and `$`), and Java's \u / \x escapes.
    pcre2_set_newline(cc, PCRE2_NEWLINE_ANYCRLF);
    pcre2_set_compile_extra_options(cc, PCRE2_EXTRA_ALT_BSUX);
    int error = 0;
    PCRE2_SIZE offset = 0;
    // UTF without UCP: Java matches code points but keeps \w, \d, \b and POSIX classes ASCII. A stored value
    // that is not valid UTF-8 is matched, not refused (MATCH_INVALID_UTF).
    compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_ALT_BSUX, &error, &offset, cc);
    pcre2_compile_context_free(cc);
    if (!compiled->code)
        return Diagnostic::error(
            "INVALID_PARAMETER_VALUE.PATTERN",
            "INVALID_PARAMETER_VALUE.PATTERN: the regular expression '" + std::string(pattern) + "' of " +
                function + " is invalid: " + pcreMessage(error) + " at offset " + std::to_string(offset));
    pcre2_jit_compile(compiled->code, PCRE2_JIT_COMPLETE); // no JIT on this platform: the interpreter runs
    compiled->context = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(compiled->context, matchLimit);
    pcre2_set_depth_limit(compiled->context, depthLimit);
    pcre2_set_heap_limit(compiled->context, heapLimitKiB);
    compiled->data = pcre2_match_data_create_from_pattern(compiled->code, nullptr);
    std::uint32_t groups = 0;
    pcre2_pattern_info(compiled->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    auto regex = std::unique_ptr<SparkRegex>(
        new SparkRegex(std::string(pattern), std::move(function), std::move(compiled)));
    regex->m_groups = groups;
    return regex;
}

SparkRegex::SparkRegex(std::string pattern, std::string function, std::unique_ptr<Compiled> compiled)
    : m_pattern(std::move(pattern)), m_function(std::move(function)), m_compiled(std::move(compiled)) {}

SparkRegex::~SparkRegex() = default;

Diagnostic SparkRegex::matchError(int code, std::string_view subject) const {
    const bool tooComplex = code == PCRE2_ERROR_MATCHLIMIT || code == PCRE2_ERROR_DEPTHLIMIT ||
                            code == PCRE2_ERROR_HEAPLIMIT || code == PCRE2_ERROR_JIT_STACKLIMIT ||
                            code == PCRE2_ERROR_NOMEMORY;
    const std::string what = tooComplex ? "REGEX_TOO_COMPLEX" : "REGEX_MATCH_FAILED";
    std::string message = what + ": the regular expression '" + m_pattern + "' of " + m_function +
                          (tooComplex ? " is too complex for the value " : " failed on the value ") +
                          excerpt(subject) + " (" + std::to_string(codePoints(subject)) +
                          " characters): " + pcreMessage(code);
    return Diagnostic::error(what, std::move(message));
}

template <class F> Status SparkRegex::forEachMatch(std::string_view subject, F&& onMatch) const {
    pcre2_jit_stack_assign(m_compiled->context, nullptr, threadJitStack());
    const auto* text = reinterpret_cast<PCRE2_SPTR>(subject.data());
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(m_compiled->data);
    std::size_t from = 0;
    while (from <= subject.size()) {
        const int rc = pcre2_match(m_compiled->code, text, subject.size(), from, 0, m_compiled->data,
                                   m_compiled->context);
        if (rc == PCRE2_ERROR_NOMATCH)
            break;
        if (rc < 0)
            return matchError(rc, subject);
        if (!onMatch(ovector))
            break;
        // Java's find(): after an empty match the next search starts one character further.
        from = ovector[1];
        if (ovector[0] == ovector[1]) {
            if (from >= subject.size())
                break;
            from += codePointLength(subject, from);
        }
    }
    return Status::success();
}

Result<bool> SparkRegex::find(std::string_view subject) const {
    bool found = false;
    CDC_TRY(forEachMatch(subject, [&](const PCRE2_SIZE*) {
        found = true;
        return false;
    }));
    return found;
}

Result<std::string> SparkRegex::extract(std::string_view subject, long long group) const {
    if (group < 0 || static_cast<unsigned long long>(group) > m_groups)
        return Diagnostic::error("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
                                 "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX: " + m_function +
                                     " expects a group index between 0 and " + std::to_string(m_groups) +
                                     ", but got " + std::to_string(group));
    std::string out;
    CDC_TRY(forEachMatch(subject, [&](const PCRE2_SIZE* ov) {
        const std::size_t g = static_cast<std::size_t>(group);
        if (ov[2 * g] != PCRE2_UNSET)
            out.assign(subject.substr(ov[2 * g], ov[2 * g + 1] - ov[2 * g]));
        return false;
    }));
    return out;
}

namespace {

/// A replacement string parsed as Java's Matcher.appendReplacement reads it: literal text and group numbers.
struct ReplacementPart {
    std::string literal;
    int group = -1; ///< -1 for literal text
};

Result<std::vector<ReplacementPart>> parseReplacement(std::string_view r, std::size_t groups,
                                                      const pcre2_code* code) {
    auto fail = [&](const std::string& why) {
        return Diagnostic::error("REGEX_REPLACEMENT", "REGEX_REPLACEMENT: the replacement '" +
                                                          std::string(r) + "' of regexp_replace " + why);
    };
    std::vector<ReplacementPart> parts(1);
    for (std::size_t i = 0; i < r.size();) {
        if (r[i] == '\\') {
            if (i + 1 == r.size())
                return fail("ends in a backslash that escapes nothing");
            const std::size_t n = codePointLength(r, i + 1);
            parts.back().literal += r.substr(i + 1, n);
            i += 1 + n;
        } else if (r[i] == '$') {
            if (++i == r.size())
                return fail("has a '$' without a group after it");
            int group = 0;
            if (r[i] == '{') {
                const std::size_t close = r.find('}', i);
                if (close == std::string_view::npos)
                    return fail("has a '${' without its closing '}'");
                const std::string name(r.substr(i + 1, close - i - 1));
                group = pcre2_substring_number_from_name(code, reinterpret_cast<PCRE2_SPTR>(name.c_str()));
                if (group < 0)
                    return fail("names the group '" + name + "', which the pattern does not have");
                i = close + 1;
            } else {
                if (r[i] < '0' || r[i] > '9')
                    return fail("has a '$' that is followed by neither a group number nor '{name}'");
                group = r[i++] - '0';
                if (static_cast<std::size_t>(group) > groups)
                    return fail("refers to group " + std::to_string(group) + ", but the pattern has " +
                                std::to_string(groups));
                // Java takes further digits only while the number stays a group of the pattern.
                while (i < r.size() && r[i] >= '0' && r[i] <= '9' &&
                       static_cast<std::size_t>(group * 10 + (r[i] - '0')) <= groups)
                    group = group * 10 + (r[i++] - '0');
            }
            parts.push_back({{}, group});
            parts.emplace_back();
        } else {
            parts.back().literal += r[i++];
        }
    }
    return parts;
}

} // namespace

Result<std::string> SparkRegex::replaceAll(std::string_view subject, std::string_view replacement) const {
    std::optional<Result<std::vector<ReplacementPart>>>
        parts; // Java reads the replacement at the first match
    std::string out;
    std::size_t copied = 0;
    Diagnostic replacementError;
    bool failed = false;
    CDC_TRY(forEachMatch(subject, [&](const PCRE2_SIZE* ov) {
        if (!parts)
            parts = parseReplacement(replacement, m_groups, m_compiled->code);
        if (!parts->ok()) {
            replacementError = parts->error();
            failed = true;
            return false;
        }
        out += subject.substr(copied, ov[0] - copied);
        for (const ReplacementPart& part : parts->value()) {
            const auto g = static_cast<std::size_t>(part.group);
            if (part.group < 0)
                out += part.literal;
            else if (ov[2 * g] != PCRE2_UNSET)
                out += subject.substr(ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
        }
        copied = ov[1];
        return true;
    }));
    if (failed)
        return replacementError;
    out += subject.substr(copied);
    return out;
}

Result<std::vector<std::string>> SparkRegex::split(std::string_view subject) const {
    std::vector<std::string> pieces;
    if (m_pattern.empty() && !subject.empty()) { // Spark: one piece per character, no trailing ""
        for (std::size_t i = 0; i < subject.size(); i += codePointLength(subject, i))
            pieces.emplace_back(subject.substr(i, codePointLength(subject, i)));
        return pieces;
    }
    std::size_t index = 0;
    CDC_TRY(forEachMatch(subject, [&](const PCRE2_SIZE* ov) {
        if (!(index == 0 && ov[0] == 0 && ov[1] == 0)) {
            pieces.emplace_back(subject.substr(index, ov[0] - index));
            index = ov[1];
        }
        return true;
    }));
    pieces.emplace_back(subject.substr(index));
    return pieces;
}

} // namespace cdc::sql
