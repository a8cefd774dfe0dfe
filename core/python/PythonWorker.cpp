// The Python worker: the hidden mode of the programs that runs one pipeline file in embedded CPython.
// It is a process of its own so that whatever the file does — raise, loop forever, abort, crash the
// interpreter — the program that asked only sees an answer, a time-out or a dead child (PythonRunner).

#include "core/python/PythonRunner.h"
#include "core/python/RuntimeSource.h"

#include <nlohmann/json.hpp>
#include <pybind11/embed.h>

#include <csignal>
#include <iostream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace py = pybind11;

namespace cdc::python {

namespace {

void writeAll(int fd, const std::string& text) {
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0)
            return;
        done += static_cast<std::size_t>(n);
    }
}

} // namespace

int runPythonWorker() {
    const std::string request(std::istreambuf_iterator<char>(std::cin), {});
    // The reply goes to the original stdout; anything the user's file prints goes to stderr instead, so
    // it cannot corrupt the reply.
    const int reply = ::dup(STDOUT_FILENO);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);

    // Isolated: no PYTHON* environment variables, no user site-packages, no current folder on the path,
    // so the file sees Debian's standard library and our modules only.
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    std::string answer;
    {
        py::scoped_interpreter interpreter(&config, 0, nullptr, false);
        try {
            // A crash (abort, segfault) or the parent's SIGUSR1 at its deadline prints the Python stack on
            // stderr, where the parent finds the pipeline file's line. faulthandler then hands the signal to
            // the handler it replaced: the default one, so that the worker dies of the signal and the parent
            // reports the crash — not one the program installed before (AddressSanitizer's turns a crash into
            // a report and exit status 1, after a stack walk that can outlast the time limit).
            for (const int fatal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
                std::signal(fatal, SIG_DFL);
            auto faulthandler = py::module_::import("faulthandler");
            faulthandler.attr("enable")();
            faulthandler.attr("register")(SIGUSR1);
            py::dict scope;
            scope["__name__"] = "cdc_runtime";
            scope["__builtins__"] = py::module_::import("builtins");
            py::exec(kRuntimeSource, scope);
            answer = scope["main"](request).cast<std::string>();
        } catch (const std::exception& e) {
            // Only a broken runtime gets here: the user's errors are answers of the runtime itself.
            answer = nlohmann::json{{"ok", false},
                                    {"code", "PYTHON_WORKER"},
                                    {"line", 0},
                                    {"column", 0},
                                    {"message", std::string("the Python runtime failed: ") + e.what()}}
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        writeAll(reply, answer);
        std::cout.flush();
        std::cerr.flush();
        // No interpreter finalization: a thread the file started must not keep the worker alive.
        ::_exit(0);
    }
}

} // namespace cdc::python
