// The order in which a function's statements run, and their parents
// (private to analyzer/lib): built once from the CFG the flow analysis
// walked, and read by every rule that asks "before", "after" or "what uses
// this". clang-tidy's ExprSequence is the model: order is the CFG's, not
// the source's, so a loop's back edge, an early return or a branch count;
// parents come from a map of this function's body only, never of the
// whole unit.
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace clang {
class CFG;
class CFGBlock;
class Decl;
class Expr;
class ParentMap;
class Stmt;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class FunctionSequence {
public:
  // Function: the declaration whose Graph it is (its body, and for a
  // constructor its member initializers, get parents). Graph may be null
  // (the CFG could not be built): then no statement reaches another.
  FunctionSequence(const clang::Decl &Function, std::unique_ptr<clang::CFG> Graph);
  ~FunctionSequence();
  FunctionSequence(FunctionSequence &&) noexcept;
  FunctionSequence &operator=(FunctionSequence &&) noexcept;

  // The statement directly around S in this function, or null.
  const clang::Stmt *parent(const clang::Stmt &S) const;
  // The expression that uses E's value: its parent past parentheses,
  // implicit casts and temporaries; or null.
  // Child, when given, is set to the node directly below the user.
  const clang::Stmt *user(const clang::Expr &E, const clang::Stmt **Child = nullptr) const;

  // Whether A comes before B in control-flow order: a topological order of
  // the CFG without its back edges (the order of evaluation inside a block).
  // A total order on the statements the CFG holds; statements it does not
  // hold come last.
  bool isEarlier(const clang::Stmt &A, const clang::Stmt &B) const;
  // Whether To may run after From has run: some path leads from just after
  // From to To without passing a statement Stops accepts (a loop's back
  // edge is a path).
  bool reaches(const clang::Stmt &From, const clang::Stmt &To,
               llvm::function_ref<bool(const clang::Stmt &)> Stops = nullptr) const;
  // Whether every path from just after From to the function's exit passes
  // Then: Then runs whenever From has run (no return, break, branch or
  // throw lets the function leave without it).
  bool alwaysReaches(const clang::Stmt &From, const clang::Stmt &Then) const;
  // The statement the CFG lists where S runs: S, or the nearest statement
  // around it that the CFG holds (what a Stops predicate is given); or null.
  const clang::Stmt *elementOf(const clang::Stmt &S) const;
  // The statement the CFG holds for Var's declaration: the point at which
  // Var holds its initial value. Null when Var is not declared here.
  const clang::Stmt *declarationOf(const clang::VarDecl &Var) const;
  // The CFG the order comes from (with the ends of variables' lifetimes),
  // for a rule that walks it with a state of its own; null when it could
  // not be built.
  const clang::CFG *graph() const { return Graph.get(); }

private:
  struct Position {
    unsigned Block = 0; // the block's id
    unsigned Index = 0; // among its elements
  };
  // The walk behind reaches and alwaysReaches: true when it
  // meets an element Found accepts before one Stops accepts.
  bool search(const clang::Stmt &Start, llvm::function_ref<bool(const clang::Stmt &)> Found,
              llvm::function_ref<bool(const clang::Stmt &)> Stops, bool FindExit) const;

  std::unique_ptr<clang::CFG> Graph;
  std::unique_ptr<clang::ParentMap> Parents;
  llvm::DenseMap<const clang::Stmt *, Position> Positions;
  // The position of each block in a reverse post-order, by block id.
  llvm::SmallVector<unsigned, 16> BlockOrder;
  llvm::SmallVector<const clang::CFGBlock *, 16> Blocks; // by id
  llvm::DenseMap<const clang::VarDecl *, const clang::Stmt *> Declarations;
};

} // namespace placelint::analysis
