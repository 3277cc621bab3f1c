#include "report/machines/power_explain.h"

#include <algorithm>
#include <cstdio>

#include "sim/machines/power_partition.h"

namespace cidsim {

using nlohmann::json;
using sc_core::sc_time;

const char* const kPowerTimelineLegend =
    "POWER CPU rows: c the call (csd, enqueue, ipi_message, XIVE trigger), ~ csd_lock_wait, "
    "s usleep and the loop, . idle (polling), I IPI handler, t timer interrupt, p idle loop "
    "flushing a polled call; S irq_count++ taking the descriptor's line, L the dispatch's load "
    "missing it; desc line: who holds it modified (= shared clean by several); transfers: + "
    "inside a chip, * across chips";

PowerExplainLogs::PowerExplainLogs(System& system) : m_power(*system.power()) {
    m_cpus.resize(m_power.cpu_count());
    m_descs.resize(m_power.descs().size());
    for (unsigned c = 0; c < m_cpus.size(); ++c) m_power.cpu(c).record_into(&m_cpus[c]);
    for (size_t k = 0; k < m_descs.size(); ++k) m_power.descs()[k]->record_into(&m_descs[k]);
}

void PowerExplainLogs::detach() {
    if (!m_attached) return;
    m_attached = false;
    for (unsigned c = 0; c < m_cpus.size(); ++c) m_power.cpu(c).record_into(nullptr);
    for (const auto& d : m_power.descs()) d->record_into(nullptr);
}

namespace {

std::string cpu_name(AgentId a) { return "cpu" + std::to_string(a); }

char digit(AgentId a) { return a < 10 ? char('0' + a) : '#'; }

// Whether [a, b) meets column [c0, c1); an instant (a == b) counts too.
bool meets(const sc_time& a, const sc_time& b, const sc_time& c0, const sc_time& c1) {
    return a < c1 && (b > c0 || (a == b && a >= c0));
}

// Of several states in one column, the one the picture must not lose.
int rank(char state) {
    static const char kOrder[] = "I" "t" "p" "c" "~" "s" ".";
    const char* at = std::find(kOrder, kOrder + 7, state);
    return int(at - kOrder);
}

std::string trimmed(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

}  // namespace

json PowerExplainLogs::explain(const TimelineWindow& w, const TimelineWindow& told, size_t max_lines,
                               const std::string& label) const {
    const ChipLayout& layout = m_power.layout();
    const double span = ns_of(w.to - w.from);
    const auto col_start = [&](unsigned c) { return w.from + ns(span * c / w.columns); };
    const auto column_of = [&](const sc_time& t) { return size_t(ns_of(t - w.from) / span * w.columns); };
    json rows = json::array();
    for (unsigned cpu = 0; cpu < m_cpus.size(); ++cpu) {
        const auto& states = m_cpus[cpu].states;
        std::string cells(w.columns, ' ');
        size_t first = 0;  // the state in force at the column's start
        for (unsigned c = 0; c < w.columns; ++c) {
            const sc_time c0 = col_start(c), c1 = col_start(c + 1);
            while (first + 1 < states.size() && states[first + 1].first <= c0) ++first;
            char best = 0;
            for (size_t k = first; k < states.size(); ++k) {
                const sc_time until = k + 1 < states.size() ? states[k + 1].first : w.to;
                if (states[k].first >= c1) break;
                if (!meets(states[k].first, until, c0, c1)) continue;
                if (!best || rank(states[k].second) < rank(best)) best = states[k].second;
            }
            if (best) cells[c] = best;
        }
        unsigned stores = 0, loads = 0;
        for (const auto& log : m_descs)
            for (const LineTransferRecord& a : log) {
                if (a.cpu != cpu || !meets(a.asked, a.done, w.from, w.to)) continue;
                ++(a.store ? stores : loads);
                for (unsigned c = 0; c < w.columns; ++c)
                    if (meets(a.asked, a.done, col_start(c), col_start(c + 1)) && cells[c] != 'S')
                        cells[c] = a.store ? 'S' : 'L';
            }
        const std::string note = "(chip " + std::to_string(layout.chip_of(cpu)) + ": " +
                                 std::to_string(stores) + " S, " + std::to_string(loads) + " L)";
        rows.push_back({{"label", label + " " + cpu_name(cpu)}, {"cells", trimmed(cells)},
                        {"note", note}, {"power", true}});
    }

    // Per descriptor: who holds the hot line, and each transfer.
    for (size_t k = 0; k < m_descs.size(); ++k) {
        std::vector<const LineTransferRecord*> order;
        for (const LineTransferRecord& a : m_descs[k]) order.push_back(&a);
        std::stable_sort(order.begin(), order.end(),
                         [](const LineTransferRecord* a, const LineTransferRecord* b) { return a->done < b->done; });
        std::string holder(w.columns, ' '), moves(w.columns, ' ');
        char now_held = ' ';
        size_t next = 0;
        uint64_t transfers = 0, cross = 0;
        for (unsigned c = 0; c < w.columns; ++c) {
            const sc_time c1 = col_start(c + 1);
            for (; next < order.size() && order[next]->done < c1; ++next) {
                const LineTransferRecord& a = *order[next];
                now_held = a.store ? digit(a.cpu) : '=';
                if (a.done < w.from) continue;
                ++transfers;
                cross += a.cross_chip;
                char& cell = moves[column_of(a.done)];
                if (cell != '*') cell = a.cross_chip ? '*' : '+';
            }
            holder[c] = now_held;
        }
        const std::string name = m_descs.size() == 1 ? " desc line" : " desc" + std::to_string(k) + " line";
        rows.push_back({{"label", label + name}, {"cells", trimmed(holder)},
                        {"note", m_descs.size() == 1 ? "(one irq_desc for every IPI)"
                                                     : "(chip " + std::to_string(k) + "'s irq_desc)"},
                        {"power", true}});
        rows.push_back({{"label", label + (m_descs.size() == 1 ? " transfers" : " transfers" + std::to_string(k))},
                        {"cells", trimmed(moves)},
                        {"note", "(" + std::to_string(transfers) + " transfers, " + std::to_string(cross) +
                                     " across chips)"},
                        {"power", true}});
    }

    // The narration: the CPUs' steps and the line's transfers, in time order.
    struct Said {
        sc_time at;
        std::string what;
    };
    std::vector<Said> said;
    for (unsigned cpu = 0; cpu < m_cpus.size(); ++cpu)
        for (const auto& [t, what] : m_cpus[cpu].steps)
            if (t >= told.from && t < told.to) said.push_back({t, cpu_name(cpu) + "  " + what});
    for (size_t k = 0; k < m_descs.size(); ++k)
        for (const LineTransferRecord& a : m_descs[k]) {
            if (a.asked < told.from || a.asked >= told.to) continue;
            const LineTopology& topo = m_power.descs()[k]->hot_line().topology();
            const unsigned chip = layout.chip_of(a.cpu), from_chip = layout.chip_of(a.from);
            std::string what = a.store ? "irq_count++ " : "dispatch loads desc->action: ";
            if (a.from_memory)
                what += std::string(a.store ? "takes" : "fetches") + " the line from memory";
            else if (a.from == a.cpu)
                what += "upgrades its shared copy";
            else
                what += std::string(a.store ? "takes" : "fetches") + " the line from " + cpu_name(a.from) +
                        (a.cross_chip ? " (chip " + std::to_string(from_chip) + " -> chip " +
                                            std::to_string(chip) + ", ACROSS CHIPS)"
                         : topo.distance(a.cpu, a.from) == LineDistance::SameCore
                             ? " (its SMT sibling)"
                             : " (inside chip " + std::to_string(chip) + ")");
            if (a.store) {
                what += ", invalidating " + std::to_string(a.invalidated) +
                        (a.invalidated == 1 ? " copy" : " copies");
                if (a.invalidated_remote) what += " (" + std::to_string(a.invalidated_remote) + " on the other chips)";
            }
            char tail[96];
            std::snprintf(tail, sizeof tail, ": %.0f ns%s", ns_of(a.done - a.asked),
                          a.queued ? ", queued behind earlier transfers" : "");
            said.push_back({a.asked, cpu_name(a.cpu) + "  " + what + tail});
        }
    std::stable_sort(said.begin(), said.end(), [](const Said& a, const Said& b) { return a.at < b.at; });
    json lines = json::array();
    for (const Said& s : said) {
        if (lines.size() >= max_lines) {
            lines.push_back("  ... " + std::to_string(said.size() - max_lines) + " more steps not shown");
            break;
        }
        char t[48];
        std::snprintf(t, sizeof t, "%10s ns  ", format_ns(s.at).c_str());
        lines.push_back(t + s.what);
    }
    return {{"rows", rows}, {"narration", lines}};
}

}  // namespace cidsim
