#pragma once
// Bad config input and the documented limits on it.
#include <cstddef>
#include <cstdint>

#include "io/bad_input.h"

namespace cidsim {

// Bad input: the message names the key path and what was expected.
struct ConfigError : BadInput {
    using BadInput::BadInput;
};

// Documented maxima: together with the Params ranges they bound the memory
// any input can make cidsim allocate (listed by `cidsim params` as "(limits)").
constexpr size_t kMaxConfigBytes = 16u << 20;  // config file size
constexpr int kMaxJsonDepth = 32;              // nesting of arrays and objects
constexpr size_t kMaxDevices = 1024;           // entries of `devices` (one per CPU at kMaxCpus)
constexpr size_t kMaxWorkloads = 2048;         // entries of `workloads`
constexpr size_t kMaxVcpus = 8;                // entries of `vcpus` (each with its own pCPU)
constexpr size_t kMaxTraceEvents = 1000000;    // events of one trace workload
constexpr size_t kMaxListLength = 2048;        // any integer list (irq_cpus)
constexpr size_t kMaxNameLength = 64;          // any string value (names)
constexpr size_t kMaxIncludedFiles = 64;       // files included by one config, counted each time
constexpr uint64_t kMaxOutstandingIos = 1u << 22;  // NVMe jobs x iodepth plus DSA wq_depth, summed
// A sweep point's or reproduce row's --set, one argument of its command:
// Linux's MAX_ARG_STRLEN (32 pages) less its terminating NUL.
constexpr size_t kMaxSetBytes = 32 * 4096 - 1;
// The records of run.batches' windows (config/checks.cpp, check_window_memory).
constexpr double kMaxWindowBytes = 400e6;
constexpr double kWindowBytesPerCpu = 5e3;
constexpr double kWindowBytesPerVector = 2e3;
constexpr double kWindowBytesPerNvmeJob = 16e3;

}  // namespace cidsim
