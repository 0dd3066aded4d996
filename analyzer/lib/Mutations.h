// Whether a variable may change in a statement (private to analyzer/lib):
// clang's ExprMutationAnalyzer, told what it cannot know of the tensor API.
// The API's in-place methods (`t.add_(u)`, which libtorch declares const)
// change their object; its other calls change nothing they are given (a
// non-const method of a module or a container of tensors, an API function
// taking a non-const reference), as the API model says.
#pragma once

#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>

namespace clang {
class ExprMutationAnalyzer;
class Expr;
class Stmt;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

class Mutations {
public:
  explicit Mutations(const ApiModel &Model);
  ~Mutations();

  // Whether Var may change behind the analysis's back, through a pointer or
  // a reference to it.
  bool isEscaped(const clang::ValueDecl &Var) const { return Escaped.contains(&Var); }
  // Whether Var (a variable, or a field of `this`) or a part of it
  // (`batch.images`, `v[i]`, `cfg->device`) may change while Scope runs:
  // assigned, moved from, passed by non-const reference outside the tensor
  // API, changed in place, or, for a field, any non-const method of `this`
  // called there.
  bool changesIn(const clang::ValueDecl &Var, const clang::Stmt &Scope);

protected:
  // Filled by the walk of the body (BodyFacts): address taken, bound to a
  // non-const reference, captured by reference by a lambda that changes it.
  llvm::DenseSet<const clang::ValueDecl *> Escaped;

private:
  // Whether the analyzer's mutation of Part, if any, is one the API makes.
  bool changes(const clang::Expr &Part, clang::ExprMutationAnalyzer &Analyzer,
               unsigned Depth) const;
  // Whether the API leaves what Mutation was given as it was.
  bool apiLeavesUnchanged(const clang::Stmt &Mutation) const;
  bool isApiClass(const clang::CXXRecordDecl *Record) const;

  const ApiModel &Model;
  // One analyzer per scope: it remembers its answers.
  llvm::DenseMap<const clang::Stmt *, std::unique_ptr<clang::ExprMutationAnalyzer>> Analyzers;
};

} // namespace placelint::analysis
