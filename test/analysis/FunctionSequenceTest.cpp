// FunctionSequence: control-flow order, reachability and parents of one
// function's statements, on plain C++ (calls of `a()`, `b()`, `c()` mark
// the statements asked about).
#include "FunctionSequence.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace placelint::analysis {
namespace {

using namespace clang;

class Snippet {
public:
  explicit Snippet(llvm::StringRef Body)
      : Unit(tooling::buildASTFromCodeWithArgs(
            ("int a(); int b(); int c(); void f(bool x, int n) {" + Body + "}").str(),
            {"-std=c++20"})) {
    ASTContext &Context = Unit->getASTContext();
    for (const Decl *D : Context.getTranslationUnitDecl()->decls())
      if (const auto *Fn = dyn_cast<FunctionDecl>(D); Fn && Fn->getName() == "f")
        Function = Fn;
    // As the flow analysis builds it (flow/FixedPoint.cpp).
    CFG::BuildOptions Options;
    Options.AddInitializers = true;
    Options.AddLifetime = true;
    Options.setAllAlwaysAdd();
    Sequence.emplace(*Function,
                     CFG::buildCFG(Function, Function->getBody(), &Context, Options));
  }

  // The N-th call of Name in f, in source order.
  const CallExpr &call(llvm::StringRef Name, unsigned N = 0) const {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::StringRef Name;
      unsigned Left;
      const CallExpr *Found = nullptr;
      bool VisitCallExpr(CallExpr *Call) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (!Found && Callee && Callee->getName() == Name && Left-- == 0)
          Found = Call;
        return true;
      }
    } Finder;
    Finder.Name = Name;
    Finder.Left = N;
    Finder.TraverseStmt(Function->getBody());
    EXPECT_NE(Finder.Found, nullptr) << Name.str();
    return *Finder.Found;
  }
  const VarDecl &var(llvm::StringRef Name) const {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::StringRef Name;
      const VarDecl *Found = nullptr;
      bool VisitVarDecl(VarDecl *Var) {
        if (Var->getName() == Name)
          Found = Var;
        return true;
      }
    } Finder;
    Finder.Name = Name;
    Finder.TraverseStmt(Function->getBody());
    EXPECT_NE(Finder.Found, nullptr) << Name.str();
    return *Finder.Found;
  }
  const FunctionSequence &sequence() const { return *Sequence; }

private:
  std::unique_ptr<ASTUnit> Unit;
  const FunctionDecl *Function = nullptr;
  std::optional<FunctionSequence> Sequence;
};

TEST(FunctionSequenceTest, StraightLine) {
  Snippet S("a(); b();");
  const FunctionSequence &Q = S.sequence();
  EXPECT_TRUE(Q.isEarlier(S.call("a"), S.call("b")));
  EXPECT_FALSE(Q.isEarlier(S.call("b"), S.call("a")));
  EXPECT_TRUE(Q.reaches(S.call("a"), S.call("b")));
  EXPECT_FALSE(Q.reaches(S.call("b"), S.call("a")));
  EXPECT_TRUE(Q.alwaysReaches(S.call("a"), S.call("b")));
}

TEST(FunctionSequenceTest, LoopBackEdgeReachesWhatCameEarlierInTheSource) {
  Snippet S("for (int i = 0; i < n; ++i) { if (i > 0) b(); a(); } c();");
  const FunctionSequence &Q = S.sequence();
  // b() runs after a() of the iteration before.
  EXPECT_TRUE(Q.reaches(S.call("a"), S.call("b")));
  EXPECT_TRUE(Q.isEarlier(S.call("b"), S.call("a")));
  EXPECT_TRUE(Q.reaches(S.call("a"), S.call("a"))); // itself, next iteration
  EXPECT_FALSE(Q.reaches(S.call("c"), S.call("a")));
  EXPECT_TRUE(Q.alwaysReaches(S.call("a"), S.call("c")));
  EXPECT_FALSE(Q.alwaysReaches(S.call("a"), S.call("b"))); // the loop may end first
}

TEST(FunctionSequenceTest, StraightLineCodeReachesNothingTwice) {
  Snippet S("a(); b();");
  EXPECT_FALSE(S.sequence().reaches(S.call("a"), S.call("a")));
}

TEST(FunctionSequenceTest, EarlyReturnAndThrowSkipWhatFollows) {
  Snippet Return("a(); if (x) return; b();");
  EXPECT_TRUE(Return.sequence().reaches(Return.call("a"), Return.call("b")));
  EXPECT_FALSE(Return.sequence().alwaysReaches(Return.call("a"), Return.call("b")));
  Snippet Throw("a(); if (x) throw 1; b();");
  EXPECT_FALSE(Throw.sequence().alwaysReaches(Throw.call("a"), Throw.call("b")));
  Snippet Neither("a(); if (x) c(); b();");
  EXPECT_TRUE(Neither.sequence().alwaysReaches(Neither.call("a"), Neither.call("b")));
}

TEST(FunctionSequenceTest, BranchesDoNotReachEachOther) {
  Snippet S("if (x) a(); else b(); c();");
  const FunctionSequence &Q = S.sequence();
  EXPECT_FALSE(Q.reaches(S.call("a"), S.call("b")));
  EXPECT_FALSE(Q.reaches(S.call("b"), S.call("a")));
  EXPECT_TRUE(Q.reaches(S.call("a"), S.call("c")));
  EXPECT_TRUE(Q.reaches(S.call("b"), S.call("c")));
}

TEST(FunctionSequenceTest, StopsCutThePath) {
  Snippet S("a(); if (x) c(); b(); a();");
  const FunctionSequence &Q = S.sequence();
  const Stmt *C = Q.elementOf(S.call("c"));
  auto AtC = [&](const Stmt &St) { return &St == C; };
  // The path that skips c() still reaches b().
  EXPECT_TRUE(Q.reaches(S.call("a"), S.call("b"), AtC));
  Snippet Always("a(); c(); b();");
  const Stmt *AlwaysC = Always.sequence().elementOf(Always.call("c"));
  EXPECT_FALSE(Always.sequence().reaches(Always.call("a"), Always.call("b"),
                                         [&](const Stmt &St) { return &St == AlwaysC; }));
}

TEST(FunctionSequenceTest, ParentsAndUsersWithinTheBody) {
  Snippet S("long r = a(); (void)(b() + 1);");
  const FunctionSequence &Q = S.sequence();
  // Past the conversion to long: the declaration uses a()'s value.
  EXPECT_TRUE(isa_and_nonnull<DeclStmt>(Q.user(S.call("a"))));
  const Stmt *Child = nullptr;
  const Stmt *User = Q.user(S.call("b"), &Child);
  ASSERT_TRUE(isa_and_nonnull<BinaryOperator>(User));
  EXPECT_EQ(cast<BinaryOperator>(User)->getLHS(), Child);
  EXPECT_TRUE(isa_and_nonnull<ImplicitCastExpr>(Q.parent(S.call("a"))));
}

TEST(FunctionSequenceTest, EachVariableOfOneDeclarationHasItsPoint) {
  Snippet S("int p = a(), q = b(); c();");
  const FunctionSequence &Q = S.sequence();
  const Stmt *P = Q.declarationOf(S.var("p"));
  const Stmt *R = Q.declarationOf(S.var("q"));
  ASSERT_NE(P, nullptr);
  ASSERT_NE(R, nullptr);
  EXPECT_NE(P, R);
  EXPECT_TRUE(Q.isEarlier(*P, *R));
  EXPECT_TRUE(Q.isEarlier(S.call("a"), *P));
  EXPECT_TRUE(Q.reaches(*P, S.call("b")));
}

TEST(FunctionSequenceTest, NoGraphMeansNothingReaches) {
  auto Unit = tooling::buildASTFromCode("int a(); void f() { a(); a(); }");
  const FunctionDecl *F = nullptr;
  for (const Decl *D : Unit->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *Fn = dyn_cast<FunctionDecl>(D); Fn && Fn->getName() == "f")
      F = Fn;
  ASSERT_NE(F, nullptr);
  FunctionSequence Q(*F, nullptr);
  const auto *Body = cast<CompoundStmt>(F->getBody());
  EXPECT_FALSE(Q.reaches(*Body->body_front(), *Body->body_back()));
  EXPECT_FALSE(Q.alwaysReaches(*Body->body_front(), *Body->body_back()));
  EXPECT_NE(Q.parent(*Body->body_front()), nullptr);
}

} // namespace
} // namespace placelint::analysis
