#pragma once
// Runs `body` in a child process and returns what it wrote to stderr,
// requiring that it ended by abort() (the lookahead check's way out, which
// would end the test's own process).
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include <catch2/catch.hpp>

namespace cidsim_test {

template <class Body>
std::string expect_abort(Body&& body) {
    int err[2];
    REQUIRE(pipe(err) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        dup2(err[1], 2);
        body();
        _exit(0);
    }
    close(err[1]);
    std::string message;
    char buf[512];
    for (ssize_t n; (n = read(err[0], buf, sizeof buf)) > 0;) message.append(buf, size_t(n));
    close(err[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    INFO(message);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGABRT);
    return message;
}

}  // namespace cidsim_test
