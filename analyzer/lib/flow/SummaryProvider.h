// How the flow analysis of one function learns what it needs of the other
// functions of the unit (what a call returns, what guards its callers),
// without knowing who computes it.
#pragma once

#include "placelint/analysis/ValueFact.h"

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class Expr;
class CXXRecordDecl;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

struct CallersGuard {
  unsigned Devices = 0;
  const clang::Expr *WeakestCall = nullptr; // null when there is no call
};

class SummaryProvider {
public:
  virtual ~SummaryProvider();
  // The fact of Callee's result when called with Arguments (the facts of
  // its parameters, in order); unknown when it cannot be said.
  virtual ValueFact resultOf(const clang::FunctionDecl &Callee,
                             llvm::ArrayRef<ValueFact> Arguments) = 0;
  // Whether a module class of the unit registers parameters, buffers or
  // submodules (a module that registers nothing has no device of its own).
  virtual bool registersState(const clang::CXXRecordDecl &Module) = 0;
  // How many CUDA devices the availability checks around every call of
  // Function in the unit ensure (0 when it is not called here, or some call
  // is not guarded), and the call that ensures the fewest.
  virtual CallersGuard devicesEnsuredByCallers(const clang::FunctionDecl &Function) = 0;
};

} // namespace placelint::analysis
