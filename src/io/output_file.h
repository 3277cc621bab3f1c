#pragma once
// The one output layer: every file cidsim writes goes through
// write_file_atomically, the only code that renames a file into place.
//
// claim_output, called for each output before any work, refuses with
// BadInput (exit status 2) an empty name, a directory, a device node, FIFO
// or socket, a place that cannot be written (with the system's reason), and
// a file that is an input of this command (io/input_file.h) or another
// output of it: "the same file" is the same path after symlinks, or the same
// device and inode.
//
// write_file_atomically (and OutputBatch) writes through symlinks: it resolves the final path,
// writes a temporary file beside the target and renames it onto the target,
// so the link stays a link and a reader never sees a partial file. The
// temporary file is removed if the write fails or the process is
// interrupted (io/cleanup.h).
#include <string>
#include <utility>
#include <vector>

namespace cidsim {

// `role` names the output in messages: "--out", "the sweep manifest".
void claim_output(const std::string& role, const std::string& path);
void write_file_atomically(const std::string& path, std::string text);

// A file in a directory where a command writes only its own files (a
// sweep's, reproduce --keep's) that it must not write: a link it would
// write through, a place no run's file can be, or a file of another name
// too, which its run would change. `what` completes "NAME is ...", empty
// when `path` is free (missing, or a regular file of one name).
struct ForeignFile {
    bool symlink = false;
    std::string what;  // "a symbolic link (to T)", "not a regular file (a directory)", ...
};
ForeignFile foreign_file(const std::string& path);

// The outputs of one command, written whole or not at all: every file is
// written beside its target first, and only when all are written are they
// renamed into place (a full disk on the third leaves the first two as they
// were); a rename that fails (an immutable target, a mount point) puts back
// the files renamed before it.
class OutputBatch {
public:
    void add(const std::string& path, std::string text);  // an empty path adds nothing
    // Prints `printed` on standard output, then writes the files: should the
    // print fail (a full disk), none is written (std::runtime_error).
    void write(const std::string& printed = "");

private:
    std::vector<std::pair<std::string, std::string>> m_files;
};

}  // namespace cidsim
