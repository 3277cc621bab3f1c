#pragma once
// Where cidsim finds the files it ships (the RFC and systems tables, device
// profiles, bench configs, explain scenarios): one lookup for every command,
// so an installed binary needs no source tree.
//
// A path relative to the data root ("configs/rfc/tables.json") is looked up,
// in order, in $CIDSIM_DATA_DIR, <prefix>/share/cidsim beside the binary
// (cmake --install puts them there; <prefix> is the binary's folder's
// parent, so a moved prefix still works), the source tree the binary was
// built from, and last the working directory (a clone whose build moved):
// a folder the user runs from never replaces the shipped files unasked.
#include <string>
#include <vector>

namespace cidsim {

// The first existing place of `rel`; when none exists, the source tree's,
// so a message names where it was expected.
std::string data_file(const std::string& rel);

// Every candidate folder for `rel`, in lookup order (explain lists the
// scenarios of the first folder that has any).
std::vector<std::string> data_candidates(const std::string& rel);

}  // namespace cidsim
