#pragma once
// One function per `cidsim` subcommand; each parses its own options.
// Exit status: 0 success, 1 runtime failure, 2 bad input (config, options).
namespace cidsim {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

int cmd_run(int argc, char** argv);
int cmd_params(int argc, char** argv);
int cmd_reproduce(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_collect(int argc, char** argv);
int cmd_explain(int argc, char** argv);
int cmd_bench(int argc, char** argv);

}  // namespace cidsim
