#pragma once
// The cidsim version (git describe at configure time), recorded in every
// result. Defined in a generated file so a new commit recompiles one file.
namespace cidsim {
const char* version();
}
