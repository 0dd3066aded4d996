// The calls of a unit's functions (private to analyzer/lib): each call made
// in the main file's functions, with the function it is in (a call through
// a virtual method calls each of its overrides; a container's forward, the
// forwards of the modules put into it), and the functions used otherwise
// than called (a callback, an address taken, an override of a virtual
// method declared outside the main file), whose callers are unknown. Read by
// the rules and the flow alike that judge a function by every call of it
// (availability checks around a helper that asks for CUDA; device guards
// around a launcher; how often a method runs). One per unit's analysis
// (DeviceAnalysis owns it, FunctionFacts::calls() hands it to the rules),
// built on the first question: the walk covers every declaration of the
// main file, never the (often huge) headers.
#pragma once

#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

class CallIndex {
public:
  struct CallSite {
    const clang::FunctionDecl *Caller; // the definition the call is in
    const clang::Expr *Call;           // a CallExpr or a CXXConstructExpr
    // The call names the function itself; false where the API implies the
    // call: a module holder's `model(x)` calling its NetImpl's forward,
    // `std::make_shared<Net>(args)` or a holder's construction constructing
    // a Net, a call through a virtual method calling an override.
    bool Direct;
  };

  CallIndex(clang::ASTContext &Context, const ApiModel &Model) : Context(Context), Model(Model) {}
  // Shared by reference: a copy would walk the unit again.
  CallIndex(const CallIndex &) = delete;
  CallIndex &operator=(const CallIndex &) = delete;

  // The calls of Function (any of its declarations); the index is built on
  // the first question.
  llvm::ArrayRef<CallSite> callsOf(const clang::FunctionDecl &Function);
  // Whether Function is used otherwise than called: its callers are unknown.
  bool escapes(const clang::FunctionDecl &Function);
  // The functions of the unit Call (a call or a construction) calls.
  llvm::ArrayRef<const clang::FunctionDecl *> calleesOf(const clang::Expr &Call);

private:
  void build();

  clang::ASTContext &Context;
  const ApiModel &Model;
  bool Built = false;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<CallSite, 2>> Calls;
  llvm::DenseSet<const clang::FunctionDecl *> Escaping;
  llvm::DenseMap<const clang::Expr *, llvm::SmallVector<const clang::FunctionDecl *, 1>> Callees;
};

} // namespace placelint::analysis
