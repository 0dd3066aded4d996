// The reverse of extraction and a change of order: a call of one of the
// program's own small helpers replaced by the helper's body, its parameters
// bound to the arguments; and two adjacent statements that share no
// variable swapped. Both keep what the program does: a helper is inlined
// only where its arguments have no side effects, it does not call itself,
// it returns only at its end and no name in its body means something else
// at the call; statements are swapped only when neither touches state the
// other can see (a shared variable, a global, an alias, a void call on
// nothing named such as setting the current device).
#include "Transforms.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/SourceCode.h"

#include <map>
#include <set>

namespace placelint::reshape {

using namespace clang;

namespace {

/// Helpers of at most this many statements are inlined.
constexpr unsigned MaxInlinedStatements = 4;

CharSourceRange fileRange(const Program &P, CharSourceRange Range) {
  return Lexer::makeFileCharRange(Range, P.sourceManager(), P.langOptions());
}

CharSourceRange statementRange(const Program &P, const Stmt *Statement) {
  return fileRange(P, tooling::getExtendedRange(*Statement, tok::semi, P.context()));
}

/// Text of Range with the replacements that fall inside it made.
std::string substituted(const Program &P, CharSourceRange Range,
                        const std::vector<std::pair<SourceLocation, std::pair<unsigned, std::string>>> &Replacements) {
  const SourceManager &SM = P.sourceManager();
  std::string Text = P.text(Range);
  unsigned Start = SM.getFileOffset(Range.getBegin());
  std::vector<std::pair<unsigned, std::pair<unsigned, std::string>>> Sorted;
  for (const auto &[At, Replacement] : Replacements) {
    unsigned Offset = SM.getFileOffset(At);
    if (Offset >= Start && Offset + Replacement.first <= Start + Text.size())
      Sorted.push_back({Offset - Start, Replacement});
  }
  std::sort(Sorted.begin(), Sorted.end(), [](const auto &A, const auto &B) { return A.first > B.first; });
  for (const auto &[Offset, Replacement] : Sorted)
    Text.replace(Offset, Replacement.first, Replacement.second);
  return Text;
}

/// One line: whitespace runs holding a line break become one space, so
/// that what a call's line held stays on it.
std::string oneLine(const std::string &Text) {
  std::string Line;
  bool Space = false;
  for (char C : Text) {
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      Space = true;
      continue;
    }
    if (Space && !Line.empty())
      Line += ' ';
    Space = false;
    Line += C;
  }
  return Line;
}

/// Every name declared anywhere in the declaration around a site: a name in
/// an inlined body must not mean one of these at the call.
std::set<std::string> namesAround(const Decl *TopLevel) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::set<std::string> Names;
    bool VisitNamedDecl(NamedDecl *D) {
      if (D->getIdentifier())
        Names.insert(D->getNameAsString());
      return true;
    }
  } F;
  F.TraverseDecl(const_cast<Decl *>(TopLevel));
  return F.Names;
}

/// A helper whose body can replace its calls: its statements (the last a
/// `return` with a value, or any statement in a void helper) and the
/// references in them to its parameters and its own locals.
struct InlinableHelper {
  const FunctionDecl *Function = nullptr;
  std::vector<const Stmt *> Statements;
  const Expr *Returned = nullptr; ///< the last statement's value
  std::vector<std::pair<const ValueDecl *, SourceLocation>> References;
  std::set<std::string> OtherNames; ///< names the body uses unqualified, besides its own
  std::set<const ParmVarDecl *> MutatedByValue;
};

std::optional<InlinableHelper> inlinable(const Program &P, const FunctionDecl *Callee) {
  const FunctionDecl *Function = Callee ? Callee->getDefinition() : nullptr;
  if (!Function || isa<CXXMethodDecl>(Function) || Function->isMain() || Function->isVariadic() ||
      Function->getTemplatedKind() != FunctionDecl::TK_NonTemplate || Function->getReturnType()->isReferenceType() ||
      Function->getReturnType()->getContainedDeducedType())
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Function->getBody());
  if (!Body || Body->size() == 0 || Body->size() > MaxInlinedStatements || Body->getBeginLoc().isMacroID() ||
      Body->getEndLoc().isMacroID() || !P.inMainFile(Body->getBeginLoc()))
    return std::nullopt;
  // No marker inside: the finding is where the calls are.
  unsigned First = P.line(Body->getBeginLoc()), Last = P.line(Body->getEndLoc());
  for (unsigned Line : P.markerLines())
    if (First <= Line && Line <= Last)
      return std::nullopt;
  CharSourceRange Whole = fileRange(P, CharSourceRange::getTokenRange(Body->getSourceRange()));
  std::string Text = Whole.isValid() ? P.text(Whole) : "";
  if (Text.empty() || Text.find("//") != std::string::npos || Text.find("/*") != std::string::npos)
    return std::nullopt;

  InlinableHelper Helper;
  Helper.Function = Function;
  for (const Stmt *Statement : Body->body())
    Helper.Statements.push_back(Statement);
  const auto *Return = dyn_cast<ReturnStmt>(Helper.Statements.back());
  if (Return && Return->getRetValue())
    Helper.Returned = Return->getRetValue();
  else if (!Function->getReturnType()->isVoidType() || Return)
    return std::nullopt;

  struct Scanner : RecursiveASTVisitor<Scanner> {
    const Program &P;
    const FunctionDecl *Function;
    const Stmt *Last;
    InlinableHelper &Helper;
    std::set<const VarDecl *> Locals;
    std::set<const VarDecl *> Referenced;
    bool Fails = false;
    Scanner(const Program &P, const FunctionDecl *Function, const Stmt *Last, InlinableHelper &Helper)
        : P(P), Function(Function), Last(Last), Helper(Helper) {}
    bool TraverseLambdaExpr(LambdaExpr *Lambda) { return TraverseStmt(Lambda->getBody()); }
    bool VisitReturnStmt(ReturnStmt *Return) {
      Fails |= Return != Last;
      return true;
    }
    bool VisitGotoStmt(GotoStmt *) { return !(Fails = true); }
    bool VisitCXXThisExpr(CXXThisExpr *) { return !(Fails = true); }
    bool VisitVarDecl(VarDecl *Var) {
      Fails |= Var->isStaticLocal() || !Var->getIdentifier() || Var->getLocation().isMacroID();
      Locals.insert(Var);
      Helper.References.push_back({Var, Var->getLocation()});
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const ValueDecl *Decl = Ref->getDecl();
      if (Decl == Function || Decl == Function->getCanonicalDecl() ||
          (isa<FunctionDecl>(Decl) && cast<FunctionDecl>(Decl)->getCanonicalDecl() == Function->getCanonicalDecl()))
        return !(Fails = true);
      SourceLocation At = Ref->getLocation();
      if (At.isMacroID()) {
        if (!P.sourceManager().isMacroArgExpansion(At))
          return !(Fails = true);
        At = P.sourceManager().getSpellingLoc(At);
      }
      const auto *Var = dyn_cast<VarDecl>(Decl);
      if (Var && (isa<ParmVarDecl>(Var) ? Var->getDeclContext() == Function : Locals.count(Var))) {
        Referenced.insert(Var);
        Helper.References.push_back({Var, At});
      } else if (!Ref->getQualifier()) {
        Helper.OtherNames.insert(Decl->getNameAsString());
      }
      return true;
    }
  } Scan(P, Function, Helper.Statements.back(), Helper);
  Scan.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (Scan.Fails)
    return std::nullopt;
  // A local nothing reads is there for its constructor (a device guard).
  for (const VarDecl *Local : Scan.Locals)
    if (!isa<ParmVarDecl>(Local) && !Scan.Referenced.count(Local))
      return std::nullopt;
  ExprMutationAnalyzer Mutations(*Body, P.context());
  for (const ParmVarDecl *Parameter : Function->parameters()) {
    if (!Parameter->getIdentifier() && Helper.Statements.size() > 1)
      return std::nullopt;
    if (!Parameter->getType()->isReferenceType() && Mutations.isMutated(Parameter))
      Helper.MutatedByValue.insert(Parameter);
  }
  return Helper;
}

bool sameType(QualType A, QualType B) {
  return A.getNonReferenceType().getCanonicalType().getUnqualifiedType() ==
         B.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}

/// The calls a site makes of helpers it can inline, with the helpers.
std::vector<std::pair<const CallExpr *, InlinableHelper>> inlinableCalls(const Program &P, const Site &S) {
  // A call inside a nested block belongs to the statement around it there.
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const CallExpr *> Calls;
    bool TraverseCompoundStmt(CompoundStmt *) { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      if (!isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
        Calls.push_back(Call);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S.Statement));
  std::set<std::string> Around = namesAround(S.TopLevel);
  std::vector<std::pair<const CallExpr *, InlinableHelper>> Found;
  for (const CallExpr *Call : F.Calls) {
    std::optional<InlinableHelper> Helper = inlinable(P, Call->getDirectCallee());
    if (!Helper || Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID() ||
        !Helper->Function->getDeclContext()->getRedeclContext()->Encloses(S.Function->getDeclContext()))
      continue;
    bool Fits = Call->getNumArgs() == Helper->Function->getNumParams();
    for (const std::string &Name : Helper->OtherNames)
      Fits &= !Around.count(Name);
    for (const Expr *Argument : Call->arguments())
      Fits &= !isa<CXXDefaultArgExpr>(Argument) && !Argument->HasSideEffects(P.context()) &&
              fileRange(P, CharSourceRange::getTokenRange(Argument->getSourceRange())).isValid();
    if (Fits)
      Found.push_back({Call, std::move(*Helper)});
  }
  return Found;
}

/// The argument as the parameter's value: converted as the call converted it.
std::optional<std::string> argumentAs(const Program &P, const ParmVarDecl *Parameter, const Expr *Argument) {
  std::string Text = oneLine(P.text(fileRange(P, CharSourceRange::getTokenRange(Argument->getSourceRange()))));
  QualType Written = Argument->IgnoreUnlessSpelledInSource()->getType();
  if (sameType(Parameter->getType(), Written))
    return "(" + Text + ")";
  if (Parameter->getType()->isReferenceType())
    return std::nullopt;
  return "static_cast<" + spell(Parameter->getType().getUnqualifiedType(), P.context()) + ">(" + Text + ")";
}

/// The helper's returned value as the call's value.
std::string returnedAs(const Program &P, const InlinableHelper &Helper, const std::string &Value) {
  QualType Returns = Helper.Function->getReturnType();
  if (sameType(Returns, Helper.Returned->IgnoreUnlessSpelledInSource()->getType()))
    return "(" + Value + ")";
  return "static_cast<" + spell(Returns.getUnqualifiedType(), P.context()) + ">(" + Value + ")";
}

bool siteHoldsMarker(const Program &P, const Site &S) {
  for (unsigned Line : P.markerLines())
    if (S.FirstLine <= Line && Line <= S.LastLine)
      return true;
  return false;
}

/// `helper(a, b)` whose body is `return a * b;` becomes `((a) * (b))`.
bool inlineExpression(Edit &E, const Site &S, const CallExpr *Call, const InlinableHelper &Helper) {
  const Program &P = E.program();
  if (Helper.Statements.size() != 1 || !Helper.Returned || !Helper.MutatedByValue.empty())
    return false;
  std::vector<std::pair<SourceLocation, std::pair<unsigned, std::string>>> Replacements;
  for (const auto &[Decl, At] : Helper.References) {
    const auto *Parameter = dyn_cast<ParmVarDecl>(Decl);
    if (!Parameter)
      return false;
    std::optional<std::string> Argument =
        argumentAs(P, Parameter, Call->getArg(Parameter->getFunctionScopeIndex()));
    if (!Argument)
      return false;
    Replacements.push_back({At, {static_cast<unsigned>(Parameter->getName().size()), *Argument}});
  }
  CharSourceRange Value = fileRange(P, CharSourceRange::getTokenRange(Helper.Returned->getSourceRange()));
  CharSourceRange Callsite = fileRange(P, CharSourceRange::getTokenRange(Call->getSourceRange()));
  if (Value.isInvalid() || Callsite.isInvalid())
    return false;
  E.replace(Callsite, returnedAs(P, Helper, oneLine(substituted(P, Value, Replacements))));
  return true;
}

/// `T x = helper(a);` or `return helper(a);` or `helper(a);` whose helper has
/// a few statements: the parameters become variables bound to the arguments,
/// the statements come before, renamed apart, and the returned value takes
/// the call's place.
bool inlineStatements(Edit &E, const Site &S, const CallExpr *Call, const InlinableHelper &Helper) {
  const Program &P = E.program();
  const Expr *Whole = S.Value ? S.Value->IgnoreUnlessSpelledInSource() : dyn_cast<Expr>(S.Statement);
  if (!Whole || Whole->IgnoreUnlessSpelledInSource() != Call || S.Jumps)
    return false;
  bool VoidStatement = !S.Value;
  if (VoidStatement && (Helper.Returned || !isa<Expr>(S.Statement)))
    return false;
  size_t Leading = Helper.Statements.size() - (Helper.Returned ? 1 : 0);
  // The marker stays with the one statement that can hold the finding.
  if (siteHoldsMarker(P, S))
    for (size_t I = 0; I + (VoidStatement ? 1 : 0) < Leading; ++I)
      if (computesWithTensors(Helper.Statements[I]))
        return false;
  std::string Indent = P.indentation(S.Range.getBegin());
  std::map<const ValueDecl *, std::string> Renamed;
  std::string Code;
  for (const ParmVarDecl *Parameter : Helper.Function->parameters()) {
    std::string Name = E.fresh(Parameter->getName().str() + "_inlined");
    Renamed[Parameter] = Name;
    const Expr *Argument = Call->getArg(Parameter->getFunctionScopeIndex());
    Code += spell(Parameter->getType(), P.context()) + " " + Name + " = " +
            oneLine(P.text(fileRange(P, CharSourceRange::getTokenRange(Argument->getSourceRange())))) + ";\n" + Indent;
  }
  std::vector<std::pair<SourceLocation, std::pair<unsigned, std::string>>> Replacements;
  for (const auto &[Decl, At] : Helper.References) {
    if (!Renamed.count(Decl))
      Renamed[Decl] = E.fresh(Decl->getName().str() + "_inlined");
    Replacements.push_back({At, {static_cast<unsigned>(Decl->getName().size()), Renamed[Decl]}});
  }
  std::vector<std::string> Statements;
  for (const Stmt *Statement : Helper.Statements) {
    CharSourceRange Range = Statement == Helper.Statements.back() && Helper.Returned
                                ? fileRange(P, CharSourceRange::getTokenRange(Helper.Returned->getSourceRange()))
                                : statementRange(P, Statement);
    if (Range.isInvalid())
      return false;
    std::string Text = substituted(P, Range, Replacements);
    // A statement taken from its line keeps its line breaks only inside it.
    Statements.push_back(Statement == Helper.Statements.back() ? oneLine(Text) : Text);
  }
  if (VoidStatement) {
    for (size_t I = 0; I + 1 < Statements.size(); ++I)
      Code += Statements[I] + "\n" + Indent;
    E.replace(S.Range, Code + Statements.back());
    return true;
  }
  for (size_t I = 0; I < Leading; ++I)
    Code += Statements[I] + "\n" + Indent;
  CharSourceRange Value = fileRange(P, CharSourceRange::getTokenRange(Call->getSourceRange()));
  if (Value.isInvalid())
    return false;
  E.insertBefore(S.Range.getBegin(), Code);
  E.replace(Value, returnedAs(P, Helper, Statements.back()));
  return true;
}

/// Every call of an inlinable helper in the program, each in the innermost
/// statement that holds it.
bool inlineHelpers(Edit &E, const std::vector<Site> &) {
  bool Applied = false;
  for (const Site &S : allStatements(E.program()))
    for (const auto &[Call, Helper] : inlinableCalls(E.program(), S)) {
      bool Done = inlineExpression(E, S, Call, Helper) || inlineStatements(E, S, Call, Helper);
      Applied |= Done;
      // One rewrite of a statement's text at a time: a second call in it
      // waits for a later pass (a pair).
      if (Done && Helper.Statements.size() > 1)
        break;
    }
  return Applied;
}

/// What a statement touches, for reordering: the declarations it names or
/// declares, and whether it touches state another statement could see
/// without naming it.
struct Footprint {
  std::set<const Decl *> Names;
  bool UsesThis = false;
  bool Hidden = false;
};

Footprint footprint(const Stmt *Statement) {
  struct Scanner : RecursiveASTVisitor<Scanner> {
    Footprint F;
    bool VisitVarDecl(VarDecl *Var) {
      F.Names.insert(Var);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const ValueDecl *Decl = Ref->getDecl();
      F.Names.insert(Decl);
      QualType Type = Decl->getType();
      if (const auto *Var = dyn_cast<VarDecl>(Decl)) {
        // A global, or an alias of what another name holds.
        bool Constant = Type.isConstQualified() && !Type->isReferenceType();
        F.Hidden |= (!Var->isLocalVarDeclOrParm() || Var->isStaticLocal()) && !Constant;
        F.Hidden |= Type->isPointerType() ||
                    (Type->isReferenceType() && !Type.getNonReferenceType().isConstQualified());
      }
      return true;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      F.Names.insert(Member->getMemberDecl());
      return true;
    }
    bool VisitCXXThisExpr(CXXThisExpr *) {
      F.UsesThis = true;
      return true;
    }
    // Calls that change or wait on state no name shows: anything that gives
    // nothing (synchronising, setting the current device or the seed,
    // moving a module in place, a backward pass), a call given the literal
    // `true` (an asynchronous copy's `non_blocking`), and a number read from
    // a tensor (`item()`, which waits for the device).
    bool VisitCallExpr(CallExpr *Call) {
      F.Hidden |= Call->getType()->isVoidType();
      for (const Expr *Argument : Call->arguments())
        if (const auto *Literal = dyn_cast<CXXBoolLiteralExpr>(Argument->IgnoreImplicit()))
          F.Hidden |= Literal->getValue();
      if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call))
        F.Hidden |= Call->getType()->isArithmeticType() && Method->getImplicitObjectArgument() &&
                    isTensorType(Method->getImplicitObjectArgument()->getType());
      return true;
    }
  } S;
  S.TraverseStmt(const_cast<Stmt *>(Statement));
  return S.F;
}

/// A declared variable nothing else names is there for its constructor (a
/// device guard): it must keep its place.
bool declaresUnread(const Site &S) {
  const auto *Declaration = dyn_cast<DeclStmt>(S.Statement);
  if (!Declaration)
    return false;
  const auto *Var = dyn_cast<VarDecl>(Declaration->getSingleDecl());
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Var;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      Found |= Ref->getDecl() == Var;
      return !Found;
    }
  } F;
  F.Var = Var;
  F.TraverseStmt(S.Function->getBody());
  return !F.Found;
}

bool movableStatement(const Site &S) {
  return (isa<DeclStmt>(S.Statement) || isa<Expr>(S.Statement)) && !S.Jumps && !S.Returns && !declaresUnread(S);
}

bool independent(const Site &A, const Site &B) {
  if (!movableStatement(A) || !movableStatement(B))
    return false;
  Footprint First = footprint(A.Statement), Second = footprint(B.Statement);
  if (First.Hidden || Second.Hidden || (First.UsesThis && Second.UsesThis))
    return false;
  for (const Decl *Name : First.Names)
    if (Second.Names.count(Name))
      return false;
  return true;
}

/// The site and the statement after it (else before it) swap places when
/// they share nothing; each keeps its trailing comment.
bool reorder(Edit &E, const std::vector<Site> &Sites) {
  const Program &P = E.program();
  std::set<const Stmt *> Moved;
  bool Applied = false;
  for (const Site &S : Sites) {
    if (Moved.count(S.Statement))
      continue;
    const auto *Block = P.context().getParents(*S.Statement).size() == 1
                            ? P.context().getParents(*S.Statement)[0].get<CompoundStmt>()
                            : nullptr;
    if (!Block)
      continue;
    std::vector<const Stmt *> Body(Block->body_begin(), Block->body_end());
    size_t Index = std::find(Body.begin(), Body.end(), S.Statement) - Body.begin();
    for (size_t Other : {Index + 1, Index - 1}) {
      if (Other >= Body.size() || Moved.count(Body[Other]))
        continue;
      std::optional<Site> Neighbour = siteFor(P, S, Body[Other]);
      if (!Neighbour || !independent(S, *Neighbour))
        continue;
      std::string Mine = P.text(S.withTrailing()), Theirs = P.text(Neighbour->withTrailing());
      E.replace(S.withTrailing(), Theirs);
      E.replace(Neighbour->withTrailing(), Mine);
      Moved.insert(S.Statement);
      Moved.insert(Body[Other]);
      Applied = true;
      break;
    }
  }
  return Applied;
}

} // namespace

void addInlineTransforms(std::vector<Transform> &Into) {
  Into.push_back({"inline-helper", "a call of the program's own small helper replaced by its body", inlineHelpers});
  Into.push_back({"reorder", "the statement swapped with an adjacent one that shares no variable with it", reorder});
}

} // namespace placelint::reshape
