// placement-unguarded-cuda: CUDA asked for in the code (`.cuda()`, `kCUDA`,
// `"cuda:1"` where a device is expected) on a path where no
// `cuda::is_available()` / `device_count()` check, here or around every
// call of the function, ensures that device
// (docs/rules/placement-unguarded-cuda.md). A device that comes from
// outside (a parameter, a parsed flag) is not a request of the code's.
#include "rules/Rules.h"

#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace placelint::analysis {

using namespace clang;

void diagnoseUnguardedCuda(const FunctionFacts &Facts, FindingsHandler &Handler) {
  // One finding a line: `x.to(torch::Device(torch::kCUDA, 1))` asks once.
  llvm::DenseSet<unsigned> Lines;
  const SourceManager &SM = Facts.function().getASTContext().getSourceManager();
  const Expr *Guarded = nullptr;
  for (const CudaRequest &Request : Facts.cudaRequests())
    if (Request.guarded() && !Guarded)
      Guarded = Request.Where;
  for (const CudaRequest &Request : Facts.cudaRequests()) {
    if (Request.guarded())
      continue;
    SourceLocation At = SM.getExpansionLoc(Request.Where->getExprLoc());
    if (!Lines.insert(SM.getExpansionLineNumber(At)).second)
      continue;
    // The split placement: nothing guards this request, another one is.
    const Expr *GuardedElsewhere = Request.DevicesEnsured == 0 ? Guarded : nullptr;
    Handler.onUnguardedCuda({Request.Where, GuardedElsewhere, Request.DevicesNeeded,
                             Request.DevicesEnsured, Request.WeakestCall});
  }
}

} // namespace placelint::analysis
