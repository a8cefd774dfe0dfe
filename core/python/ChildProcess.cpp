#include "core/python/ChildProcess.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace cdc::python {

namespace {

using Clock = std::chrono::steady_clock;

/// More than any pipeline's answer; a child that writes more is cut off rather than filling memory.
constexpr std::size_t kMaxOutput = 64u << 20;

/// Closes a descriptor when it goes out of scope (the set-up's temporaries).
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0)
            ::close(fd);
    }
    int release() { return std::exchange(fd, -1); }
};

Diagnostic systemError(const std::string& what) {
    return Diagnostic::error("PYTHON_WORKER", what + ": " + std::strerror(errno));
}

/// The whole input in an anonymous file: the child reads it as stdin at its own pace, and the parent never
/// blocks on (or gets SIGPIPE from) a pipe the child does not read.
Result<int> inputFile(std::string_view input) {
    Fd fd{::memfd_create("cdc-python-request", MFD_CLOEXEC)};
    if (fd.fd < 0)
        return systemError("cannot create the worker's input");
    for (std::size_t done = 0; done < input.size();) {
        const ssize_t n = ::write(fd.fd, input.data() + done, input.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return systemError("cannot write the worker's input");
        done += static_cast<std::size_t>(n);
    }
    if (::lseek(fd.fd, 0, SEEK_SET) != 0)
        return systemError("cannot rewind the worker's input");
    return fd.release();
}

} // namespace

Result<ChildProcess> ChildProcess::start(const std::string& program, const std::vector<std::string>& args,
                                         std::string_view input) {
    auto in = inputFile(input);
    if (!in)
        return in.error();
    Fd stdinFd{in.value()};
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0)
        return systemError("cannot create a pipe");
    Fd outRead{outPipe[0]}, outWrite{outPipe[1]};
    if (::pipe2(errPipe, O_CLOEXEC) != 0)
        return systemError("cannot create a pipe");
    Fd errRead{errPipe[0]}, errWrite{errPipe[1]};

    // dup2 onto 0/1/2 clears close-on-exec there; every other descriptor of ours closes at exec.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, stdinFd.fd, 0);
    posix_spawn_file_actions_adddup2(&actions, outWrite.fd, 1);
    posix_spawn_file_actions_adddup2(&actions, errWrite.fd, 2);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The child starts with no blocked signals and default actions, whatever the calling thread has (a GUI
    // worker thread may block some): SIGUSR1 must reach its stack printer, SIGPIPE must not be ignored.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGPIPE, SIGUSR1, SIGINT, SIGTERM})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        errno = rc;
        return systemError("cannot start '" + program + "'");
    }
    return ChildProcess(pid, outRead.release(), errRead.release());
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, -1)), m_out(std::exchange(other.m_out, -1)),
      m_err(std::exchange(other.m_err, -1)) {}

ChildProcess::~ChildProcess() {
    if (m_out >= 0)
        ::close(m_out);
    if (m_err >= 0)
        ::close(m_err);
    if (m_pid > 0) {
        kill(SIGKILL);
        ChildOutcome ignored;
        reap(ignored, true);
    }
}

void ChildProcess::kill(int signal) const {
    if (m_pid > 0)
        ::kill(m_pid, signal);
}

bool ChildProcess::reap(ChildOutcome& outcome, bool block) {
    int status = 0;
    pid_t r;
    do
        r = ::waitpid(m_pid, &status, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r != m_pid)
        return r < 0; // an error: nothing left to wait for
    m_pid = -1;
    if (WIFEXITED(status))
        outcome.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        outcome.signal = WTERMSIG(status);
    return true;
}

ChildOutcome ChildProcess::finish(std::chrono::milliseconds timeout, int interruptSignal,
                                  std::chrono::milliseconds grace) {
    ChildOutcome outcome;
    const auto deadline = Clock::now() + timeout;
    auto killAt = deadline;
    bool interrupted = false;
    const auto expired = [&] {
        const auto now = Clock::now();
        if (!interrupted && now >= deadline) {
            interrupted = outcome.timedOut = true;
            if (interruptSignal != 0) {
                kill(interruptSignal);
                killAt = now + grace;
            }
        }
        if (interrupted && now >= killAt) {
            kill(SIGKILL);
            return true;
        }
        return false;
    };
    // Both pipes until they close (the child's end, or SIGKILL closes them).
    while (m_out >= 0 || m_err >= 0) {
        if (expired())
            break;
        pollfd fds[2] = {{m_out, POLLIN, 0}, {m_err, POLLIN, 0}};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            (interrupted ? killAt : deadline) - Clock::now());
        const int n = ::poll(fds, 2, static_cast<int>(std::max<std::int64_t>(1, left.count())));
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[65536];
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR)
                continue;
            int& fd = i == 0 ? m_out : m_err;
            std::string& into = i == 0 ? outcome.out : outcome.err;
            if (got <= 0) {
                ::close(fd);
                fd = -1;
            } else if (into.size() < kMaxOutput) {
                into.append(buf, static_cast<std::size_t>(got));
            }
        }
    }
    // Closed pipes need not mean an ended child: wait for it within the same deadline.
    while (m_pid > 0 && !reap(outcome, false)) {
        if (expired())
            reap(outcome, true);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return outcome;
}

} // namespace cdc::python
