#pragma once
// One description per parameter, shared by everything that handles Params:
// every Params struct lists its fields once, in describe(ParamVisitor&), with
// key, unit, range and a one-line description; defaults are the struct's
// member initialisers. The config loader, the effective-config writer and
// `cidsim params` are visitors, so the three can never disagree.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

namespace cidsim {

class ParamVisitor {
public:
    virtual ~ParamVisitor() = default;
    // A duration, given in JSON in nanoseconds (keys end in _ns).
    virtual void time(const char* key, sc_core::sc_time& value, double min_ns, double max_ns,
                      const char* desc) = 0;
    virtual void real(const char* key, double& value, const char* unit, double min, double max,
                      const char* desc) = 0;
    virtual void integer(const char* key, uint64_t& value, const char* unit, uint64_t min,
                         uint64_t max, const char* desc) = 0;
    virtual void flag(const char* key, bool& value, const char* desc) = 0;
    // An execution option: how a run is computed, never what it computes,
    // so it is read like a flag but left out of the effective config (a run
    // with it and one without give the same result file).
    virtual void option(const char* key, bool& value, const char* desc) { flag(key, value, desc); }
    // An enumeration stored as int: names[i] is the JSON spelling of value i.
    virtual void choice(const char* key, int& value, const char* const* names, int count,
                        const char* desc) = 0;
    virtual void text(const char* key, std::string& value, const char* desc) = 0;
    virtual void integers(const char* key, std::vector<uint64_t>& value, uint64_t min,
                          uint64_t max, const char* desc) = 0;
    // A list whose order and repeats mean something (a count per chip): an
    // array only, never a cpulist, which would sort and merge it.
    virtual void counts(const char* key, std::vector<uint64_t>& value, uint64_t min,
                        uint64_t max, const char* desc) {
        integers(key, value, min, max, desc);
    }
};

// Enumerations visit through their int representation.
template <class Enum, int N>
void visit_choice(ParamVisitor& v, const char* key, Enum& value, const char* const (&names)[N],
                  const char* desc) {
    static_assert(sizeof(Enum) == sizeof(int), "choice enums are int-sized");
    v.choice(key, reinterpret_cast<int&>(value), names, N, desc);
}

inline double ns_of(const sc_core::sc_time& t) { return t / sc_core::sc_time(1, sc_core::SC_NS); }
// Whole nanoseconds, cheap enough for the per-MSI path (histograms).
inline uint64_t whole_ns(const sc_core::sc_time& t) {
    static const uint64_t ticks_per_ns = sc_core::sc_time(1, sc_core::SC_NS).value();
    return t.value() / ticks_per_ns;
}
inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

}  // namespace cidsim
