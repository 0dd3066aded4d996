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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class Expr;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class Mutations {
public:
  explicit Mutations(const ApiModel &Model) : Model(Model) {}

  // Whether Var may change behind the analysis's back, through a pointer or
  // a reference to it that the analysis cannot name.
  bool isEscaped(const clang::ValueDecl &Var) const {
    return Escaped.contains(&aliasRoot(Var));
  }
  // The place a local reference is another name for (`auto &h =
  // state.hidden;`: `state.hidden`), or null: Var is no reference, or binds
  // a temporary or what an unknown call returned.
  const clang::Expr *boundPlace(const clang::VarDecl &Var) const { return Bound.lookup(&Var); }
  // The variable whose place Var names through local references (`auto &r
  // = x; auto &s = r;`: x for r, s and x), or Var itself.
  const clang::ValueDecl &aliasRoot(const clang::ValueDecl &Var) const;
  // The variable Var is another name for as a whole (`auto &r = v;`, and
  // `auto &s = r;`: v), or Var itself: an assignment to it gives that
  // variable a new value.
  const clang::ValueDecl &namedVariable(const clang::ValueDecl &Var) const;
  // Whether Var (a variable, or a field of `this`) or a part of it
  // (`batch.images`, `v[i]`, `cfg->device`), directly or through a local
  // reference to it (Var's own, or another of its aliasRoot), may change
  // while Scope runs:
  // assigned, moved from, passed by non-const reference outside the tensor
  // API to a function that may change it (one without a body of the
  // program's, or whose body changes that parameter or hands it on, three
  // calls deep), changed in place, its elements written through a
  // range-for's reference, or, for a field, any non-const method of `this`
  // called there.
  bool changesIn(const clang::ValueDecl &Var, const clang::Stmt &Scope) const;

protected:
  // Filled by the walk of the body (BodyFacts): the roots (aliasRoot) whose
  // address is taken, that are bound to a non-const reference the analysis
  // cannot name (`auto &r = c ? a : b;`), or that are captured by reference
  // by a lambda that changes them.
  llvm::DenseSet<const clang::ValueDecl *> Escaped;
  // The local references bound to a place: the place's expression.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> Bound;

private:
  const ApiModel &Model;
};

} // namespace placelint::analysis
