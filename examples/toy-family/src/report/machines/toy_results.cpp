// The toy family's part of a result: `toy`, the controller's count and its
// rate.
#include "report/metric_rows.h"
#include "report/result_section.h"
#include "sim/machines/toy_machine.h"

namespace cidsim {

using nlohmann::json;

namespace {

const ReportMetric kRows[] = {
    {"toy", "interrupts_per_s", "number", "1/s", "interrupts over the measured time"},
};

class ToyResults final : public ResultSection {
public:
    const char* key() const override { return "toy"; }
    std::vector<const char*> listing() const override { return {"toy"}; }
    bool present(const System& sys) const override { return sys.part<ToyMachine>() != nullptr; }
    json write(const System& sys, double secs) const override {
        const ToyStats& s = sys.part<ToyMachine>()->controller().stats();
        json o = {{"interrupts_per_s", per_second(double(s.interrupts), secs)}};
        write_block_stats(s, o);
        return o;
    }
    void list_stats(nlohmann::ordered_json& out) const override {
        list_block_stats<ToyStats>(out, "toy", "ToyStats", "");
    }
    void list_computed(nlohmann::ordered_json& out) const override {
        list_report_metrics(out, kRows);
    }
};

}  // namespace

std::unique_ptr<ResultSection> toy_result_section() { return std::make_unique<ToyResults>(); }

}  // namespace cidsim
