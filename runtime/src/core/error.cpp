#include <pl/error.h>

#include <cstdio>
#include <cstdlib>

namespace pl::detail {

void assertion_failed(const char *condition, const char *file, int line,
                      const char *function) noexcept {
  std::fprintf(stderr, "placelint runtime: internal error: assertion '%s' failed in %s at %s:%d\n",
               condition, function, file, line);
  std::abort();
}

} // namespace pl::detail
