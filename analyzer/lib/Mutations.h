// Whether a variable may change in a statement (private to analyzer/lib),
// by the syntax, told what the tensor API does: its in-place methods
// (`t.add_(u)`, which libtorch declares const) change their object; its
// other calls change nothing they are given (a non-const method of a module
// or a container of tensors, an API function taking a non-const reference).
// Not clang's ExprMutationAnalyzer: its first question builds the parent
// map of the whole translation unit (on the libtorch benchmark unit the
// checks went from 0.03 s to 1.7 s, see bench/README.md's analyzer cost).
#pragma once

#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/DenseSet.h"

namespace clang {
class Stmt;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

class Mutations {
public:
  explicit Mutations(const ApiModel &Model) : Model(Model) {}

  // Whether Var may change behind the analysis's back, through a pointer or
  // a reference to it.
  bool isEscaped(const clang::ValueDecl &Var) const { return Escaped.contains(&Var); }
  // Whether Var (a variable, or a field of `this`) or a part of it
  // (`batch.images`, `v[i]`, `cfg->device`) may change while Scope runs:
  // assigned, moved from, passed by non-const reference outside the tensor
  // API, changed in place, its elements written through a range-for's
  // reference, or, for a field, any non-const method of `this` called there.
  bool changesIn(const clang::ValueDecl &Var, const clang::Stmt &Scope) const;

protected:
  // Filled by the walk of the body (BodyFacts): address taken, bound to a
  // non-const reference, captured by reference by a lambda that changes it.
  llvm::DenseSet<const clang::ValueDecl *> Escaped;

private:
  const ApiModel &Model;
};

} // namespace placelint::analysis
