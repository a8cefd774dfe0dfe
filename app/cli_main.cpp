// cdcstudio-cli: the program. Its commands are in app/cli/ (argument handling only); the work is done by
// core. Contract: docs/cli.md. Exit status: 0 success, 1 user error, 2 wrong usage.

#include "cli/Commands.h"

#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"

int main(int argc, char** argv) {
    // The Python worker: this program started again to run one pipeline file (core/python/PythonRunner.h).
    if (argc == 2 && argv[1] == cdc::python::kWorkerFlag)
        return cdc::python::runPythonWorker();
    cdc::sql::installSparkFunctions(); // on every connection, before the first is opened
    cdc::cli::CommandLine cli;
    cdc::cli::addSourceCommands(cli);
    cdc::cli::addUpdateCommand(cli);
    cdc::cli::addReplayCommands(cli);
    cdc::cli::addBridgeCommands(cli);
    return cli.run(argc, argv);
}
