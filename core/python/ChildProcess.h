#pragma once
/// A program run in a process of its own with its input on stdin and a time limit: what a Python pipeline
/// file runs in (core/python internal, POSIX). However the child ends — an answer, a crash, an endless
/// loop — the caller gets its output and how it ended, never a hang.

#include "core/common/Diagnostic.h"

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::python {

/// How a child process ended and what it wrote.
struct ChildOutcome {
    std::string out, err;
    int exitCode = -1;     ///< its exit status when it exited
    int signal = 0;        ///< the signal that ended it, when one did (SIGKILL after a time-out)
    bool timedOut = false; ///< it was still running at the deadline and was killed
};

/// One running child. Owns its pid and pipes: a child still running when the object dies is killed and
/// reaped, so no path leaves a process behind.
class ChildProcess {
public:
    /// Starts `program` with `args` (argv[1...]); `input` is its whole stdin.
    static Result<ChildProcess> start(const std::string& program, const std::vector<std::string>& args,
                                      std::string_view input);

    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&&) = delete;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    /// Collects stdout and stderr until the child ends, or until `timeout` has passed: then it is sent
    /// `interruptSignal` (0: none) so it can say where it was on stderr, given `grace` to do so, and killed.
    ChildOutcome finish(std::chrono::milliseconds timeout, int interruptSignal = 0,
                        std::chrono::milliseconds grace = std::chrono::milliseconds(300));

private:
    ChildProcess(pid_t pid, int out, int err) : m_pid(pid), m_out(out), m_err(err) {}
    void kill(int signal) const;
    /// Waits for the child's end; true when it ended (and `outcome` says how).
    bool reap(ChildOutcome& outcome, bool block);

    pid_t m_pid = -1;
    int m_out = -1, m_err = -1;
};

} // namespace cdc::python
