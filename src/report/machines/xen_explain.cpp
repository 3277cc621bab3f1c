#include "report/machines/xen_explain.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace cidsim {

using nlohmann::json;
using sc_core::sc_time;

const char* const kXenTimelineLegend =
    "Xen vCPU rows: g guest, x Xen (root mode), . guest idle, ~ spinning on event_lock, "
    "D holding it to deliver, E holding it for an EOI (the pirq walk), b EOI past the lock "
    "(bitmap); event_lock: its owner (vCPU); hand-offs: + same socket, * across sockets";

XenExplainLogs::XenExplainLogs(System& system) : m_system(system) {
    const unsigned n = system.xen_vcpu_count();
    const unsigned sockets = unsigned(system.config().xen.sockets);
    // As Guests (sim/machines/guests.cpp) splits the vCPUs' pCPUs across the sockets.
    for (unsigned i = 0; i < n; ++i) m_socket.push_back(uint8_t(i * sockets / n));
    m_states.resize(n);
    m_steps.resize(n);
    for (unsigned i = 0; i < n; ++i) {
        system.xen_pcpu(i).record_states_into(&m_states[i]);
        system.xen_pcpu(i).record_steps_into(&m_steps[i]);
    }
    if (n) system.xen_domain().record_lock_into(&m_uses, &m_handoffs);
}

void XenExplainLogs::detach() {
    if (!m_attached) return;
    m_attached = false;
    for (unsigned i = 0; i < m_states.size(); ++i) {
        m_system.xen_pcpu(i).record_states_into(nullptr);
        m_system.xen_pcpu(i).record_steps_into(nullptr);
    }
    if (!m_states.empty()) m_system.xen_domain().record_lock_into(nullptr, nullptr);
}

namespace {

std::string vcpu(AgentId a) { return "vcpu" + std::to_string(a); }

std::string at_ns(const sc_time& t) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%10s ns  ", format_ns(t).c_str());
    return buf;
}

// Per use, the hand-off that gave it the lock (nullptr: it found the lock
// free): a grant is known by its new owner and its time.
std::vector<const LockHandoff*> handoffs_of(const std::vector<XenLockUse>& uses,
                                            const std::vector<LockHandoff>& handoffs) {
    std::map<std::pair<AgentId, sc_time>, const LockHandoff*> by_grant;
    for (const LockHandoff& h : handoffs) by_grant[{h.to, h.at}] = &h;
    std::vector<const LockHandoff*> out(uses.size(), nullptr);
    for (size_t i = 0; i < uses.size(); ++i)
        if (auto it = by_grant.find({uses[i].pcpu, uses[i].owned}); it != by_grant.end())
            out[i] = it->second;
    return out;
}

// Whether [a, b) meets column [c0, c1); an instant (a == b) counts too.
bool meets(const sc_time& a, const sc_time& b, const sc_time& c0, const sc_time& c1) {
    return a < c1 && (b > c0 || (a == b && a >= c0));
}

}  // namespace

json XenExplainLogs::explain(const TimelineWindow& w, const TimelineWindow& told, size_t max_lines,
                             const std::string& label) const {
    const double span = ns_of(w.to - w.from);
    const auto col_start = [&](unsigned c) { return w.from + ns(span * c / w.columns); };
    json rows = json::array();
    const unsigned n = unsigned(m_states.size());
    const std::vector<const LockHandoff*> handoff = handoffs_of(m_uses, m_handoffs);
    // The uses the picture shows: those that meet the window.
    std::vector<size_t> shown;
    for (size_t k = 0; k < m_uses.size(); ++k)
        if (meets(m_uses[k].asked, m_uses[k].released, w.from, w.to)) shown.push_back(k);
    for (unsigned i = 0; i < n; ++i) {
        std::string cells(w.columns, ' ');
        size_t k = 0;
        uint64_t deliveries = 0, eois = 0, bypassed = 0;
        sc_time spun;
        for (size_t k : shown) {
            const XenLockUse& u = m_uses[k];
            if (u.pcpu != i || u.asked < w.from) continue;
            if (!u.locked) {
                ++bypassed;
                continue;
            }
            ++(u.eoi ? eois : deliveries);
            if (handoff[k]) spun += u.owned - u.asked;
        }
        for (unsigned c = 0; c < w.columns; ++c) {
            const sc_time c0 = col_start(c), c1 = col_start(c + 1);
            char mark = 0, spin = 0;
            for (size_t k : shown) {
                const XenLockUse& u = m_uses[k];
                if (u.pcpu != i) continue;
                // E over b over D: what the EOI did is the point of the picture.
                if (!u.locked) {
                    if (mark != 'E' && meets(u.asked, u.released, c0, c1)) mark = 'b';
                    continue;
                }
                if (meets(u.owned, u.released, c0, c1))
                    mark = u.eoi ? 'E' : mark ? mark : 'D';
                if (handoff[k] && meets(u.asked, u.owned, c0, c1)) spin = '~';
            }
            if (mark || spin) {
                cells[c] = mark ? mark : spin;
                continue;
            }
            while (k < m_states[i].size() && m_states[i][k].first <= c0) ++k;
            if (k == 0) continue;  // before the first state: nothing known
            const std::string& s = m_states[i][k - 1].second;
            cells[c] = s == "guest" ? 'g' : s == "guest idle" ? '.' : 'x';
        }
        std::string note = "(socket " + std::to_string(m_socket[i]) + ": " +
                           std::to_string(deliveries) + " D, " + std::to_string(eois) + " E";
        if (bypassed) note += ", " + std::to_string(bypassed) + " b";
        note += ", spun " + std::to_string(whole_ns(spun)) + " ns)";
        rows.push_back({{"label", label + " vcpu" + std::to_string(i)},
                        {"cells", cells}, {"note", note}, {"xen", true}});
    }

    // The owner per column: the last one to hold it there.
    std::string owner(w.columns, ' '), hand(w.columns, ' ');
    for (unsigned c = 0; c < w.columns; ++c) {
        const sc_time c0 = col_start(c), c1 = col_start(c + 1);
        for (size_t k : shown)
            if (const XenLockUse& u = m_uses[k]; u.locked && meets(u.owned, u.released, c0, c1))
                owner[c] = u.pcpu < 10 ? char('0' + u.pcpu) : '#';
    }
    uint64_t handoffs = 0, cross = 0;
    for (const LockHandoff& h : m_handoffs) {
        if (h.at < w.from || h.at >= w.to) continue;
        ++handoffs;
        if (h.cross_socket) ++cross;
        char& cell = hand[size_t(ns_of(h.at - w.from) / span * w.columns)];
        if (cell != '*') cell = h.cross_socket ? '*' : '+';
    }
    const auto trim = [](std::string s) {
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    };
    rows.push_back({{"label", label + " event_lock"}, {"cells", trim(owner)},
                    {"note", "(the owner's vCPU; readers of the rwlock: the last)"}, {"xen", true}});
    rows.push_back({{"label", label + " hand-offs"}, {"cells", trim(hand)},
                    {"note", "(" + std::to_string(handoffs) + " hand-offs, " +
                                 std::to_string(cross) + " across sockets)"},
                    {"xen", true}});

    // The narration: the pCPUs' steps and the lock's events, in time order.
    // At one instant a release comes before the step it makes way for (the
    // injection after the unlock), a request after the step that asks.
    enum Rank { Release, Step, Request };
    struct Said {
        sc_time at;
        Rank rank;
        std::string what;
    };
    std::vector<Said> said;
    const auto say_as = [&](Rank rank, const sc_time& t, AgentId who, const std::string& what) {
        if (t >= told.from && t < told.to) said.push_back({t, rank, vcpu(who) + "  " + what});
    };
    const auto say = [&](const sc_time& t, AgentId who, const std::string& what) {
        say_as(Request, t, who, what);
    };
    for (unsigned i = 0; i < n; ++i)
        for (const auto& [t, what] : m_steps[i]) say_as(Step, t, i, what);
    const auto socket_of = [&](AgentId a) { return "socket " + std::to_string(m_socket[a]); };
    for (size_t k = 0; k < m_uses.size(); ++k) {
        const XenLockUse& u = m_uses[k];
        if (!meets(u.asked, u.released, told.from, told.to)) continue;  // says nothing there
        char vec[8];
        std::snprintf(vec, sizeof vec, "0x%02X", u.vector);
        if (!u.locked) {
            say(u.asked, u.pcpu, std::string("hvm_dpci_msi_eoi(") + vec +
                                     "): its bit is clear in the domain's bitmap: returns "
                                     "without event_lock");
            continue;
        }
        const std::string why = u.eoi ? std::string("for the EOI of ") + vec : std::string("to deliver ") + vec;
        if (const LockHandoff* h = handoff[k]) {
            // Ahead in the ticket order: the owner and the earlier spinners.
            unsigned ahead = 0;
            sc_time freed = u.asked;  // the releaser's unlock, which the line carries
            for (const XenLockUse& v : m_uses) {
                if (!v.locked || &v == &u) continue;
                if (v.asked <= u.asked && v.released > u.asked) ++ahead;
                if (v.pcpu == h->from && v.released <= h->at && v.released > freed) freed = v.released;
            }
            say(u.asked, u.pcpu, "event_lock busy (" + std::to_string(ahead) +
                                     " ahead: owner and spinners): spins on its line (" + why + ")");
            say(u.owned, u.pcpu,
                "gets event_lock from " + vcpu(h->from) + " after " + format_ns(u.owned - u.asked) +
                    " ns spinning, " + format_ns(h->at - freed) +
                    " ns after its unlock: the line moves " +
                    (h->cross_socket ? socket_of(h->from) + " -> " + socket_of(u.pcpu) + ", ACROSS SOCKETS"
                                     : "within " + socket_of(u.pcpu)));
        } else {
            say(u.owned, u.pcpu, "takes event_lock, free (" + why + ")");
        }
        std::string held = "drops event_lock after holding it " + format_ns(u.released - u.owned) + " ns: ";
        if (!u.eoi)
            held += std::string("vlapic_set_irq(") + vec + ") done";
        else if (u.walked)
            held += "walked " + std::to_string(u.walked) + " pirqs (" + std::to_string(u.misses) +
                    " line misses), nothing to do for a maskable MSI";
        else
            held += "no walk (lock only)";
        say_as(Release, u.released, u.pcpu, held);
    }
    std::stable_sort(said.begin(), said.end(), [](const Said& a, const Said& b) {
        return a.at < b.at || (a.at == b.at && a.rank < b.rank);
    });
    json lines = json::array();
    for (const Said& s : said) {
        if (lines.size() >= max_lines) {
            lines.push_back("  ... " + std::to_string(said.size() - max_lines) + " more steps not shown");
            break;
        }
        lines.push_back(at_ns(s.at) + s.what);
    }

    // Counts over the whole run.
    uint64_t locked_eois = 0, bitmap_eois = 0, delivery_locks = 0, all_handoffs = m_handoffs.size(),
             all_cross = 0;
    sc_time wait, hold;
    for (const XenLockUse& u : m_uses) {
        if (!u.locked) {
            ++bitmap_eois;
            continue;
        }
        (u.eoi ? locked_eois : delivery_locks)++;
        wait += u.owned - u.asked;
        hold += u.released - u.owned;
    }
    for (const LockHandoff& h : m_handoffs) all_cross += h.cross_socket;
    const uint64_t takes = locked_eois + delivery_locks;
    json counts = {{"lock_deliveries", delivery_locks},
                   {"lock_eois", locked_eois},
                   {"eois_past_lock", bitmap_eois},
                   {"handoffs", all_handoffs},
                   {"cross_socket_handoffs", all_cross},
                   {"lock_wait_mean_ns", takes ? ns_of(wait) / double(takes) : 0.0},
                   {"lock_hold_mean_ns", takes ? ns_of(hold) / double(takes) : 0.0}};
    return {{"rows", rows}, {"narration", lines}, {"counts", counts}};
}

}  // namespace cidsim
