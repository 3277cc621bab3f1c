#pragma once
// InterruptEntryCache: the remapping unit's cache of interrupt remapping
// table entries [VT-d 6.4], a fixed number of entries replaced LRU.
//
// Modelled: lookups by IRTE index (hit or miss), fills of present entries
// only, invalidation by index or of everything (queued invalidation's
// interrupt-entry-cache descriptors [6.5.2.5]). An entry is whatever the
// unit decodes from an IRTE (its fields and what they name), never state
// read elsewhere at use, such as a PID's NV or NDST.
// Not modelled: the cache's own timing (the unit charges a hit or a miss),
// set associativity (it is fully associative).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cidsim {

template <class Entry>
class InterruptEntryCache {
public:
    explicit InterruptEntryCache(uint64_t capacity) : m_capacity(capacity) {
        m_lines.reserve(capacity);
    }

    // The entry cached for `index` (now the most recently used), or nullptr.
    const Entry* find(uint32_t index) {
        ++m_clock;
        // Back-to-back MSIs from one queue hit the entry used last: try it first.
        if (m_last < m_lines.size() && m_lines[m_last].index == index) {
            m_lines[m_last].last_use = m_clock;
            return &m_lines[m_last].entry;
        }
        for (Line& l : m_lines)
            if (l.index == index) {
                l.last_use = m_clock;
                m_last = size_t(&l - m_lines.data());
                return &l.entry;
            }
        return nullptr;
    }
    // Caches `entry` for `index` after a miss (the least recently used
    // entry makes room); returns the cached copy. No capacity: not cached.
    const Entry& fill(uint32_t index, const Entry& entry) {
        if (m_capacity == 0) return m_uncached = entry;
        const Line line{index, m_clock, entry};
        if (m_lines.size() < m_capacity) {
            m_lines.push_back(line);
            return m_lines.back().entry;
        }
        auto victim = std::min_element(m_lines.begin(), m_lines.end(), [](const Line& a,
                                                                          const Line& b) {
            return a.last_use < b.last_use;
        });
        *victim = line;
        return victim->entry;
    }
    // An entry read from the table that is not cached (not present):
    // kept until the next such read, for the caller to use.
    const Entry& pass_through(const Entry& entry) { return m_uncached = entry; }

    void invalidate(uint32_t index) {
        m_lines.erase(std::remove_if(m_lines.begin(), m_lines.end(),
                                     [index](const Line& l) { return l.index == index; }),
                      m_lines.end());
    }
    void invalidate_all() { m_lines.clear(); }
    size_t size() const { return m_lines.size(); }

private:
    struct Line {
        uint32_t index;
        uint64_t last_use;
        Entry entry;
    };
    uint64_t m_capacity;
    std::vector<Line> m_lines;
    uint64_t m_clock = 0;
    size_t m_last = 0;  // where the last hit was (a hint, checked by index)
    Entry m_uncached;
};

}  // namespace cidsim
