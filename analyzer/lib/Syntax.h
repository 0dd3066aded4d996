// What an expression looks like, under the implicit nodes Clang adds:
// the questions every part of the analysis asks of the AST (private to
// analyzer/lib).
#pragma once

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace clang {
class LambdaExpr;
class StringLiteral;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

class ApiModel;

// The expression under implicit nodes, parentheses, copies and std::move:
// `std::move(x)`, `Tensor(x)` and `x` all give the DeclRefExpr `x`.
const clang::Expr *stripCopies(const clang::Expr *E);

// The variable an expression names, when the analysis tracks it: a local,
// a parameter, or a field of `this`.
const clang::ValueDecl *trackedDecl(const clang::Expr *E);

// The variable (as trackedDecl) a part of which E names: `batch` for
// `batch.images`, `v` for `v[i]`, `cfg` for `cfg->device`.
const clang::ValueDecl *rootDecl(const clang::Expr *E);
// A call of a function or method of namespace std.
bool isStdCall(const clang::CallExpr &Call);
// rootDecl, also through what std holders give back: `held.at(k)`,
// `held.value()`, `std::get<1>(held)`, `std::move(held)`, and a structured
// binding (the variable it decomposes).
const clang::ValueDecl *rootDeclThroughHolders(const clang::Expr *E);

// The module variable behind `model`, `model->`, `*model`.
const clang::ValueDecl *moduleDecl(const clang::Expr *E);

// `model` for `model->`, `*model`: how the user names a module.
const clang::Expr *moduleOperand(const clang::Expr *E);

// The string literal a (possibly converted) argument was written as.
const clang::StringLiteral *stringLiteralIn(const clang::Expr *E);

bool isDefaultArgument(const clang::Expr *E);
// The arguments the user wrote (default arguments left out).
unsigned explicitArgCount(const clang::CallExpr &Call);
// Whether a flag argument (`requires_grad(true)`, `requires_grad_()`) is
// written true or left to its default of true; an unknown value is not.
bool isTrueOrDefault(llvm::ArrayRef<const clang::Expr *> Args);
// Whether a flag argument is written false (`pinned_memory(false)`); a value
// known only at run time (`pinned_memory(use_cuda)`) is not.
bool isWrittenFalse(llvm::ArrayRef<const clang::Expr *> Args);

// The elements of `{a, b}` passed as a tensor list (ArrayRef, vector,
// initializer_list), or nullopt when the argument is not a literal list.
std::optional<llvm::SmallVector<const clang::Expr *, 4>> listElements(const clang::Expr *E);
bool isEmptyList(const clang::Expr *E);

// The value a converting constructor wraps: `2.0` in TensorDataContainer(2.0).
const clang::Expr *convertedValue(const clang::Expr *E);
// E without implicit nodes, parentheses and constructions from one value
// whose other arguments are defaults: `"ids"` in `std::string("ids")`,
// `kCUDA` in `Device(kCUDA, /*index=*/-1)`.
const clang::Expr *constructedFrom(const clang::Expr *E);

// Whether S is a call of Module::to on `this` (a module moving itself).
bool isMoveOfThis(const clang::Stmt &S, const ApiModel &Model);

// The lambda E is, through parentheses, conversions and one-argument
// constructions (std::function's own); or null.
const clang::LambdaExpr *lambdaIn(const clang::Expr *E);

// The first statement in S's tree (S included, in pre-order) that Matches,
// or null.
const clang::Stmt *findInTree(const clang::Stmt *S,
                              llvm::function_ref<bool(const clang::Stmt &)> Matches);

} // namespace placelint::analysis
