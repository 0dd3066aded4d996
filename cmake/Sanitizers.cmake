# Sanitizer builds, one kind per build tree:
#   PL_SANITIZE=ON  AddressSanitizer + UndefinedBehaviorSanitizer on everything
#                   this project compiles: the runtime, and the analyzer
#                   (plugin, placelint, placelint-clangd) against Debian's
#                   uninstrumented LLVM 19 libraries, as clang-tidy's own
#                   sanitizer bots do. What that mix needs at run time is set
#                   by scripts/test.sh and explained in docs/testing.md.
#   PL_TSAN=ON      ThreadSanitizer, for the runtime's threads (sim's stream
#                   workers, the host thread pool, the pinned block cache, the
#                   transfer guard).
option(PL_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(PL_TSAN "Build with ThreadSanitizer" OFF)
if(PL_SANITIZE AND PL_TSAN)
  message(FATAL_ERROR "PL_SANITIZE and PL_TSAN cannot be combined: ASan and TSan exclude each other")
endif()
if(PL_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(PL_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
