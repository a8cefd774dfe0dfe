// The command line of cdcstudio-cli: CLI11 parses it (per-subcommand --help, `--opt=value`, options before or
// after the command); each command registers itself (Commands.h) with the options it takes and the function
// that runs it. What CLI11 cannot say in our words — an unknown command or option, a missing command — is
// reported here, in the contract's form (docs/cli.md): `cdcstudio-cli: MESSAGE` and exit status 2.

#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace cdc::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUserError = 1;
inline constexpr int kExitUsage = 2;

/// The options every command shares: where the project is and where /Volumes paths lead.
struct GlobalOptions {
    std::string db = "cdcstudio.db";
    std::string volumes; ///< empty: the database's folder
};

class CommandLine {
public:
    CommandLine();

    const GlobalOptions& global() const { return m_global; }

    /// Adds the command `name`: `summary` is its line in the list of commands, `details` (may be empty) what
    /// its own help adds under the options; `run` is called (and its exit status returned) when the command
    /// line names it.
    CLI::App* add(const std::string& name, const std::string& summary, const std::string& details,
                  std::function<int()> run);

    /// Parses argv and runs the named command; returns the program's exit status.
    int run(int argc, char** argv);

private:
    struct Command {
        CLI::App* app;
        std::function<int()> run;
    };
    CLI::App m_app;
    GlobalOptions m_global;
    std::vector<Command> m_commands;
};

} // namespace cdc::cli
