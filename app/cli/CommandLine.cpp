#include "CommandLine.h"

#include "CdcVersion.h"
#include "CliSupport.h"

#include <algorithm>
#include <iostream>

namespace cdc::cli {

namespace {

const char* kFooter =
    R"(Every command that writes does so in one transaction: on any error nothing is changed.
Exit status: 0 success, 1 a user error (FILE:LINE:COL: error: MESSAGE on stderr), 2 wrong usage.
'cdcstudio-cli COMMAND --help' shows a command's options.)";

/// The first argument CLI11 left over, in the contract's words: an option nobody takes or a word that is no
/// command.
int leftoverError(const std::vector<std::string>& leftovers, bool commandGiven) {
    const std::string& first = leftovers.front();
    if (first.size() > 1 && first[0] == '-')
        return usageError("unknown option '" + first + "'");
    if (!commandGiven)
        return usageError("unknown command '" + first + "'");
    return usageError("unexpected argument '" + first + "'");
}

} // namespace

CommandLine::CommandLine()
    : m_app("cdcstudio-cli: run CDC Studio's pipeline engine on a project database", "cdcstudio-cli") {
    m_app.get_formatter()->label("Usage", "usage");
    m_app.get_formatter()->label("SUBCOMMAND", "COMMAND");
    m_app.get_formatter()->column_width(30);
    m_app.footer(kFooter);
    m_app.set_version_flag("--version", std::string("cdcstudio-cli ") + cdc::kVersion, "show the version");
    // Extras are ours to name (unknown command / option), not CLI11's "arguments were not expected".
    m_app.allow_extras();
    m_app
        .add_option(
            "--db", m_global.db,
            "project database (default ./cdcstudio.db; created if missing, but the read-only commands "
            "need it to exist)")
        ->option_text("PATH");
    m_app
        .add_option("--volumes", m_global.volumes,
                    "where /Volumes/<catalog>/<schema>/<volume>/... paths of read_files and list_files lead: "
                    "DIR/Volumes/... (default: the folder of the database)")
        ->option_text("DIR");
}

CLI::App* CommandLine::add(const std::string& name, const std::string& summary, const std::string& details,
                           std::function<int()> run) {
    CLI::App* sub = m_app.add_subcommand(name, summary);
    sub->group("Commands");
    // The global options may follow the command too (`update p.sql --db x.db`).
    sub->fallthrough();
    sub->allow_extras();
    sub->footer((details.empty() ? std::string() : details + "\n\n") +
                "Global options (--db PATH, --volumes DIR) go before or after the command.");
    // Run after parsing, not as CLI11's callback: that would run before CLI11 looks at --help.
    m_commands.push_back({sub, std::move(run)});
    return sub;
}

int CommandLine::run(int argc, char** argv) {
    const auto named = [this] {
        return std::find_if(m_commands.begin(), m_commands.end(),
                            [](const Command& c) { return c.app->parsed(); });
    };
    try {
        m_app.parse(argc, argv);
    } catch (const CLI::CallForVersion& v) {
        std::cout << v.what() << "\n";
        return kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        std::cout << m_app.help("", CLI::AppFormatMode::All);
        return kExitOk;
    } catch (const CLI::CallForHelp&) {
        // `COMMAND --help` shows that command's options, `--help` the commands.
        const auto it = named();
        std::cout << (it != m_commands.end() ? it->app->help(m_app.get_name()) : m_app.help());
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        return usageError(e.what());
    }
    const auto it = named();
    // Before the command runs: an option nobody takes, or a first word that is no command.
    if (!m_app.remaining().empty())
        return leftoverError(m_app.remaining(), it != m_commands.end());
    if (it == m_commands.end())
        return usageError("missing command");
    if (!it->app->remaining().empty())
        return leftoverError(it->app->remaining(), true);
    return it->run();
}

} // namespace cdc::cli
