#pragma once
// Resumable procedures without a thread of their own (switch-based, as in
// Dunkels' protothreads), for an SC_METHOD (cheaper per activation than an
// SC_THREAD) that must stop in the middle of an algorithm to let simulated
// time pass. Such a procedure returns false while suspended and true once
// it has ended; it keeps its resume point in an integer member, starts with
// `switch (resume) { case 0:`, and the next call after a suspension goes on
// right after the suspension point. Locals do not survive a suspension, so
// state that must lives in members; a suspension point may not sit inside
// an inner switch statement, and at most one may sit on a source line.

// Suspends: returns false; the next call continues from here.
#define CIDSIM_SUSPEND(resume)  \
    do {                        \
        (resume) = __LINE__;    \
        return false;           \
        case __LINE__:;         \
    } while (0)

// Makes `call` (true when it went through) until it goes through,
// suspending after each refusal.
#define CIDSIM_UNTIL(resume, call) \
    while (!(call)) CIDSIM_SUSPEND(resume)

// Runs `call`, a resumable sub-procedure keeping its resume point in
// `sub_resume`, from its start to its end, suspending while it does. One
// statement, like the others: it may follow an `if` without braces.
#define CIDSIM_AWAIT(resume, sub_resume, call) \
    do {                                       \
        (sub_resume) = 0;                      \
        (resume) = __LINE__;                   \
        [[fallthrough]];                       \
        case __LINE__:                         \
        if (!(call)) return false;             \
    } while (0)
