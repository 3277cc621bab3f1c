#include "workloads/workload.h"

#include <stdexcept>

namespace cidsim {

unsigned SystemView::device_index(const std::string& name, const std::string& key_path) const {
    for (size_t i = 0; i < device_names.size(); ++i)
        if (device_names[i] == name) return unsigned(i);
    std::string known;
    for (const std::string& n : device_names) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument(key_path + ": no device named '" + name + "' (devices: " + known +
                                ")");
}

Device& SystemView::device(const std::string& name, const std::string& key_path) const {
    return *devices[device_index(name, key_path)];
}

}  // namespace cidsim
