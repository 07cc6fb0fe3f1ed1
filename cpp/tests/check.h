// A minimal test harness: CHECK aborts the test binary with a message.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK(cond)                                                         \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                  \
      std::abort();                                                         \
    }                                                                       \
  } while (0)

// CHECK that `statement` throws an exception of type `type`.
#define CHECK_THROWS(statement, type) \
  do {                                \
    bool threw_ = false;              \
    try {                             \
      statement;                      \
    } catch (const type&) {           \
      threw_ = true;                  \
    }                                 \
    CHECK(threw_ && #type);           \
  } while (0)

#define RUN(test)                        \
  do {                                   \
    std::printf("[ RUN  ] %s\n", #test); \
    std::fflush(stdout);                 \
    test();                              \
    std::printf("[  OK  ] %s\n", #test); \
    std::fflush(stdout);                 \
  } while (0)
