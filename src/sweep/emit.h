#pragma once
// Hands a sweep's points to an existing engine instead of the local pool:
// one self-contained shell command per line (for `parallel -j N < cmds`,
// `parallel --sshloginfile hosts < cmds`), or a Slurm job-array script
// whose task i runs line i+1 of a commands file written next to it.
#include <string>
#include <vector>

#include "sweep/sweep_dir.h"

namespace cidsim {

// One line per point, in point order, each ending in '\n'.
std::string point_commands(const SweepDir& dir, const SweepSpec& spec,
                           const std::vector<SweepPoint>& points);

// Writes SCRIPT and its commands file (SCRIPT's name with .commands in place
// of its extension), both whole or not at all. Returns the commands path.
// The commands file write_slurm_script writes beside SCRIPT.
std::string slurm_commands_path(const std::string& script_path);
std::string write_slurm_script(const std::string& script_path, const SweepDir& dir,
                               const SweepSpec& spec, const std::vector<SweepPoint>& points);

}  // namespace cidsim
