#pragma once
// The one way cidsim opens a file the user named for reading. It refuses
// anything but a regular file before opening it (a FIFO with no writer
// would block forever, a device could be endless), bounds the size, and
// says in its messages which file and what was expected. Every file read
// is remembered, so the output layer (io/output_file.h) can refuse to
// overwrite an input of the same command.
#include <cstddef>
#include <string>
#include <vector>

#include "io/file_identity.h"

namespace cidsim {

// Reads the whole file; BadInput "PATH: no such file", "PATH: is a
// directory; expected WHAT", "PATH: is a FIFO, not a regular file; expected
// WHAT", "PATH: larger than ...", "PATH: cannot read: <strerror>".
std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes);

// Records `path` as an input of this command without reading it (yet).
void note_input(const std::string& path);
// Every input read or noted so far, as the output layer compares them.
std::vector<FileId> inputs_so_far();

// BadInput unless `path` is (or, with must_exist false, may become) a
// directory: "OPTION PATH: is a file; expected a directory". With
// must_exist false (a directory to write into) an existing one must be
// writable.
void check_directory_option(const std::string& option, const std::string& path, bool must_exist);

}  // namespace cidsim
