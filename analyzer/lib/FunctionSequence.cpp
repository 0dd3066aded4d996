#include "FunctionSequence.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"

#include <limits>
#include <tuple>

namespace placelint::analysis {

using namespace clang;

FunctionSequence::FunctionSequence(const Decl &Function, std::unique_ptr<CFG> TheGraph)
    : Graph(std::move(TheGraph)), Parents(std::make_unique<ParentMap>(Function.getBody())) {
  if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(&Function))
    for (const CXXCtorInitializer *Init : Constructor->inits())
      if (Init->getInit())
        Parents->addStmt(Init->getInit());
  if (!Graph)
    return; // no order known: nothing reaches anything
  Blocks.assign(Graph->getNumBlockIDs(), nullptr);
  for (const CFGBlock *Block : *Graph) {
    Blocks[Block->getBlockID()] = Block;
    for (unsigned Index = 0; Index < Block->size(); ++Index) {
      std::optional<CFGStmt> Element = (*Block)[Index].getAs<CFGStmt>();
      if (!Element)
        continue;
      const Stmt *S = Element->getStmt();
      // An expression the CFG lists twice (a condition's) runs first where
      // it is first listed.
      Positions.try_emplace(S, Position{Block->getBlockID(), Index});
      // The CFG splits `Tensor a, b;` into one synthetic DeclStmt per
      // variable: find each variable's.
      if (const auto *Declaration = dyn_cast<DeclStmt>(S))
        if (Declaration->isSingleDecl())
          if (const auto *Var = dyn_cast<VarDecl>(Declaration->getSingleDecl()))
            Declarations.try_emplace(Var, S);
    }
  }
  BlockOrder.assign(Graph->getNumBlockIDs(), std::numeric_limits<unsigned>::max());
  PostOrderCFGView ReversePostOrder(Graph.get());
  unsigned Next = 0;
  for (const CFGBlock *Block : ReversePostOrder)
    BlockOrder[Block->getBlockID()] = Next++;
}

FunctionSequence::~FunctionSequence() = default;
FunctionSequence::FunctionSequence(FunctionSequence &&) noexcept = default;
FunctionSequence &FunctionSequence::operator=(FunctionSequence &&) noexcept = default;

const Stmt *FunctionSequence::parent(const Stmt &S) const { return Parents->getParent(&S); }

const Stmt *FunctionSequence::user(const Expr &E, const Stmt **Child) const {
  const Stmt *Below = &E;
  const Stmt *User = parent(E);
  while (User && (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                      CXXBindTemporaryExpr, ExprWithCleanups>(User) ||
                  // A copy or move of the value (a by-value argument).
                  (isa<CXXConstructExpr>(User) && cast<CXXConstructExpr>(User)->getNumArgs() == 1))) {
    Below = User;
    User = parent(*User);
  }
  if (Child)
    *Child = Below;
  return User;
}

const Stmt *FunctionSequence::elementOf(const Stmt &S) const {
  for (const Stmt *Current = &S; Current; Current = parent(*Current))
    if (Positions.count(Current))
      return Current;
  return nullptr;
}

bool FunctionSequence::isEarlier(const Stmt &A, const Stmt &B) const {
  auto Key = [&](const Stmt &S) {
    const Stmt *Element = elementOf(S);
    if (!Element)
      return std::make_tuple(std::numeric_limits<unsigned>::max(),
                             std::numeric_limits<unsigned>::max());
    const Position &At = Positions.find(Element)->second;
    return std::make_tuple(BlockOrder[At.Block], At.Index);
  };
  return Key(A) < Key(B);
}

bool FunctionSequence::search(const Stmt &Start, llvm::function_ref<bool(const Stmt &)> Found,
                              llvm::function_ref<bool(const Stmt &)> Stops, bool FindExit) const {
  enum class Outcome { Found, Stopped, FellThrough };
  // Each block is walked whole at most once, after the rest of Start's own.
  llvm::BitVector Entered(Blocks.size());
  llvm::SmallVector<const CFGBlock *, 16> Work;
  auto Walk = [&](const CFGBlock &Block, unsigned First) {
    if (FindExit && &Block == &Graph->getExit())
      return Outcome::Found;
    for (unsigned Index = First; Index < Block.size(); ++Index) {
      std::optional<CFGStmt> Element = Block[Index].getAs<CFGStmt>();
      if (!Element)
        continue;
      if (Found && Found(*Element->getStmt()))
        return Outcome::Found;
      if (Stops && Stops(*Element->getStmt()))
        return Outcome::Stopped;
    }
    for (const CFGBlock::AdjacentBlock &Next : Block.succs())
      if (const CFGBlock *Successor = Next.getReachableBlock();
          Successor && !Entered.test(Successor->getBlockID())) {
        Entered.set(Successor->getBlockID());
        Work.push_back(Successor);
      }
    return Outcome::FellThrough;
  };
  const Position &At = Positions.find(&Start)->second;
  Outcome Result = Walk(*Blocks[At.Block], At.Index + 1);
  while (Result != Outcome::Found && !Work.empty())
    Result = Walk(*Work.pop_back_val(), 0);
  return Result == Outcome::Found;
}

bool FunctionSequence::reaches(const Stmt &From, const Stmt &To,
                               llvm::function_ref<bool(const Stmt &)> Stops) const {
  const Stmt *Start = elementOf(From);
  const Stmt *Target = elementOf(To);
  return Start && Target &&
         search(*Start, [&](const Stmt &S) { return &S == Target; }, Stops,
                /*FindExit=*/false);
}

bool FunctionSequence::alwaysReaches(const Stmt &From, const Stmt &Then) const {
  const Stmt *Start = elementOf(From);
  const Stmt *Target = elementOf(Then);
  return Start && Target &&
         !search(*Start, nullptr, [&](const Stmt &S) { return &S == Target; },
                 /*FindExit=*/true);
}

const Stmt *FunctionSequence::declarationOf(const VarDecl &Var) const {
  return Declarations.lookup(&Var);
}

} // namespace placelint::analysis
