#pragma once
// A FIFO on a power-of-two ring that grows by doubling when full: no
// allocation in steady state, nothing ever dropped.
#include <cstddef>
#include <vector>

namespace cidsim {

template <class T>
class RingBuffer {
public:
    explicit RingBuffer(size_t capacity = 16) : m_slots(round_up(capacity)) {}

    bool empty() const { return m_head == m_tail; }
    size_t size() const { return m_tail - m_head; }
    T& front() { return m_slots[m_head & mask()]; }
    const T& front() const { return m_slots[m_head & mask()]; }
    const T& operator[](size_t i) const { return m_slots[(m_head + i) & mask()]; }
    void pop_front() { ++m_head; }
    void push_back(const T& v) {
        if (size() == m_slots.size()) grow();
        m_slots[m_tail++ & mask()] = v;
    }

private:
    static size_t round_up(size_t n) {
        size_t c = 1;
        while (c < n) c <<= 1;
        return c;
    }
    size_t mask() const { return m_slots.size() - 1; }
    void grow() {
        std::vector<T> bigger(m_slots.size() * 2);
        for (size_t i = 0; i < size(); ++i) bigger[i] = (*this)[i];
        m_tail = size();
        m_head = 0;
        m_slots.swap(bigger);
    }

    std::vector<T> m_slots;
    size_t m_head = 0;
    size_t m_tail = 0;
};

}  // namespace cidsim
