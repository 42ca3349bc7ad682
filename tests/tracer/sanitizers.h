// Which sanitizer the tracer's tests are built with (clang 14 says so by __has_feature
// only): some checks cannot hold under one, and say so rather than fail.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GOTRACE_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GOTRACE_TEST_SANITIZED 1
#endif
#endif
#ifndef GOTRACE_TEST_SANITIZED
#define GOTRACE_TEST_SANITIZED 0
#endif

#if defined(__SANITIZE_THREAD__)
#define GOTRACE_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GOTRACE_TEST_TSAN 1
#endif
#endif
#ifndef GOTRACE_TEST_TSAN
#define GOTRACE_TEST_TSAN 0
#endif
