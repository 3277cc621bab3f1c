#include "report/result_section.h"

namespace cidsim {

std::vector<std::unique_ptr<ResultSection>> result_sections() {
    std::vector<std::unique_ptr<ResultSection>> s;
    s.push_back(kvm_result_section());
    s.push_back(xen_result_section());
    s.push_back(power_result_section());
    return s;
}

}  // namespace cidsim
