#include "sweep/emit.h"

#include <filesystem>

#include "io/output_file.h"
#include "report/results.h"

namespace cidsim {

namespace fs = std::filesystem;

std::string point_commands(const SweepDir& dir, const SweepSpec& spec,
                           const std::vector<SweepPoint>& points) {
    std::string out;
    for (const SweepPoint& p : points) out += dir.command_line(spec, p) + "\n";
    return out;
}

std::string slurm_commands_path(const std::string& script_path) {
    const fs::path script = fs::absolute(script_path).lexically_normal();
    std::string commands = fs::path(script).replace_extension(".commands").string();
    if (commands == script.string()) commands += ".commands";
    return commands;
}

std::string write_slurm_script(const std::string& script_path, const SweepDir& dir,
                               const SweepSpec& spec, const std::vector<SweepPoint>& points) {
    const fs::path script = fs::absolute(script_path).lexically_normal();
    const std::string commands = slurm_commands_path(script_path);
    const std::string n = std::to_string(points.size());
    std::string s;
    s += "#!/bin/bash\n";
    s += "# cidsim sweep: one array task per point (" + n + " points); task i runs line i+1 of\n";
    s += "# " + commands + "\n";
    s += "# Submit with: sbatch " + shell_quote(script.string()) + "\n";
    s += "#SBATCH --job-name=cidsim-sweep\n";
    s += "#SBATCH --array=0-" + std::to_string(points.size() - 1) + "\n";
    s += "#SBATCH --ntasks=1\n";
    s += "#SBATCH --cpus-per-task=1\n";
    s += "#SBATCH --output=" + dir.dir() + "/logs/slurm-%A_%a.out\n";
    s += "set -euo pipefail\n";
    s += "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + shell_quote(commands) + ")\n";
    s += "if [ -z \"$line\" ]; then\n";
    s += "  echo \"cidsim sweep: no command for task $SLURM_ARRAY_TASK_ID\" >&2\n";
    s += "  exit 2\n";
    s += "fi\n";
    s += "eval \"$line\"\n";
    // Placed together: a script never drives another spec's commands.
    OutputBatch outputs;
    outputs.add(commands, point_commands(dir, spec, points));
    outputs.add(script.string(), s);
    outputs.write();
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    return commands;
}

}  // namespace cidsim
