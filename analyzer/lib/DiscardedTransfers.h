// The transfers of one function body whose result is thrown away
// (`t.to(device);`: the tensor did not move), found by the syntax alone
// (private to analyzer/lib). The discarded-transfer rule reports them; the
// function summaries read them too, since a discarded transfer in a callee
// moves nothing of what its caller gave it.
#pragma once

#include "placelint/analysis/ApiModel.h"

#include "llvm/ADT/SmallVector.h"

namespace clang {
class CXXMemberCallExpr;
class Stmt;
} // namespace clang

namespace placelint::analysis {

// In source order; a lambda's body is a function of its own, not looked in.
llvm::SmallVector<const clang::CXXMemberCallExpr *, 4>
findDiscardedTransfers(const clang::Stmt &Body, const ApiModel &Model);

} // namespace placelint::analysis
