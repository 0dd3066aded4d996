// How the flow analysis of one function learns what a call to another
// function of the unit returns, without knowing who computes it.
#pragma once

#include "placelint/analysis/ValueFact.h"

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class CXXRecordDecl;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

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
};

} // namespace placelint::analysis
