#include "Program.h"

#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "clang/Tooling/Transformer/SourceCode.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <map>
#include <set>

namespace placelint::reshape {

using namespace clang;

namespace {

/// Keeps the first error as "line:col: message" and prints nothing.
class FirstError : public DiagnosticConsumer {
public:
  std::string Message;
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Message.empty())
      return;
    SmallString<200> Text;
    Info.FormatDiagnostic(Text);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc At = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (At.isValid())
        Message = std::to_string(At.getLine()) + ":" + std::to_string(At.getColumn()) + ": ";
    }
    Message += Text.str().str();
  }
};

const llvm::Regex &markerPattern() {
  static const llvm::Regex Pattern("//[[:space:]]*expect:[[:space:]]*[a-z][a-z-]*");
  return Pattern;
}

const CXXRecordDecl *recordOf(QualType Type) {
  return Type.getNonReferenceType()->getAsCXXRecordDecl();
}

/// True when a type contains a class that only the function can name.
bool unnamable(QualType Type) {
  Type = Type.getNonReferenceType().getCanonicalType();
  while (Type->isPointerType() || Type->isArrayType())
    Type = Type->isPointerType() ? Type->getPointeeType() : QualType(Type->getArrayElementTypeNoTypeQual(), 0);
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (Record->isLambda() || Record->isLocalClass() || !Record->getIdentifier())
    return true;
  if (const auto *Specialization = dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Argument : Specialization->getTemplateArgs().asArray())
      if (Argument.getKind() == TemplateArgument::Type && unnamable(Argument.getAsType()))
        return true;
  return false;
}

/// Reads what a site uses from around it.
class SiteScanner : public RecursiveASTVisitor<SiteScanner> {
public:
  SiteScanner(Site &S, const Program &P) : S(S), P(P) {}

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    Lambdas.push_back(Lambda);
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
    Lambdas.pop_back();
    return Result;
  }
  bool TraverseStmt(Stmt *Statement) {
    if (!Statement)
      return true;
    bool Breakable = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(Statement);
    bool Loop = Breakable && !isa<SwitchStmt>(Statement);
    BreakTargets += Breakable;
    ContinueTargets += Loop;
    bool Result = RecursiveASTVisitor::TraverseStmt(Statement);
    BreakTargets -= Breakable;
    ContinueTargets -= Loop;
    return Result;
  }
  bool VisitReturnStmt(ReturnStmt *Return) {
    if (Lambdas.empty() && Return != S.Statement)
      S.Jumps = true;
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) {
    S.Jumps |= Lambdas.empty() && BreakTargets == 0;
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *) {
    S.Jumps |= Lambdas.empty() && ContinueTargets == 0;
    return true;
  }
  bool VisitGotoStmt(GotoStmt *) {
    S.Jumps = true;
    return true;
  }
  bool VisitCoreturnStmt(CoreturnStmt *) {
    S.Jumps = true;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    if (!Member->hasExplicitTemplateArgs())
      return true;
    // Every variable the object is computed from: `(e * e).mean().item<float>()`.
    struct Bases : RecursiveASTVisitor<Bases> {
      std::set<const ValueDecl *> &Into;
      explicit Bases(std::set<const ValueDecl *> &Into) : Into(Into) {}
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        Into.insert(Ref->getDecl());
        return true;
      }
    } Found(MemberTemplateBases);
    Found.TraverseStmt(Member->getBase());
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *) {
    S.UsesThis = true;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const ValueDecl *Decl = Ref->getDecl();
    bool Local = false;
    if (const auto *Var = dyn_cast<VarDecl>(Decl))
      Local = Var->isLocalVarDeclOrParm() && !Var->isStaticLocal();
    else if (const auto *Binding = dyn_cast<BindingDecl>(Decl))
      Local = isa_and_nonnull<VarDecl>(Binding->getDecomposedDecl()) &&
              cast<VarDecl>(Binding->getDecomposedDecl())->isLocalVarDecl();
    if (!Local || declaredInside(Decl))
      return true;
    SiteVariable &Variable = variable(Decl);
    Variable.Local = isa<VarDecl>(Decl);
    SourceLocation At = Ref->getLocation();
    if (At.isMacroID()) {
      if (P.sourceManager().isMacroArgExpansion(At))
        At = P.sourceManager().getSpellingLoc(At);
      else
        Variable.Pinned = true;
    }
    if (!Lambdas.empty() && Lambdas.back()->getCaptureDefault() == LCD_None)
      Variable.Pinned = true;
    Variable.Uses.push_back(At);
    return true;
  }

  void finish() {
    ExprMutationAnalyzer Mutations(*S.Statement, P.context());
    for (SiteVariable &Variable : S.Variables) {
      Variable.Mutated = Mutations.isMutated(Variable.Decl);
      Variable.Changed = reassigned(Variable.Decl) || (!Variable.Tensor && Variable.Mutated);
      Variable.CallsMemberTemplate = MemberTemplateBases.count(Variable.Decl);
      S.Unnamable |= unnamable(Variable.Type);
    }
  }

private:
  bool declaredInside(const Decl *D) const {
    const SourceManager &SM = P.sourceManager();
    SourceLocation At = SM.getExpansionLoc(D->getLocation());
    return !SM.isBeforeInTranslationUnit(At, S.Range.getBegin()) &&
           SM.isBeforeInTranslationUnit(At, S.Range.getEnd());
  }
  SiteVariable &variable(const ValueDecl *Decl) {
    for (SiteVariable &Variable : S.Variables)
      if (Variable.Decl == Decl)
        return Variable;
    SiteVariable &Variable = S.Variables.emplace_back();
    Variable.Decl = Decl;
    Variable.Name = Decl->getNameAsString();
    Variable.Type = Decl->getType();
    Variable.Tensor = isTensorType(Variable.Type);
    Variable.Device = isDeviceType(Variable.Type);
    return Variable;
  }
  /// Assigned as a whole (`x = ...`, `x += ...` on a scalar, `++x`).
  bool reassigned(const ValueDecl *Decl) const {
    struct Finder : RecursiveASTVisitor<Finder> {
      const ValueDecl *Decl;
      bool Found = false;
      bool names(const Expr *E) const {
        const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return Ref && Ref->getDecl() == Decl;
      }
      bool VisitBinaryOperator(BinaryOperator *Op) {
        Found |= Op->isAssignmentOp() && names(Op->getLHS());
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *Op) {
        Found |= Op->isIncrementDecrementOp() && names(Op->getSubExpr());
        return true;
      }
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
        Found |= Call->getOperator() == OO_Equal && Call->getNumArgs() > 0 && names(Call->getArg(0));
        return true;
      }
    } F;
    F.Decl = Decl;
    F.TraverseStmt(const_cast<Stmt *>(S.Statement));
    return F.Found;
  }

  Site &S;
  const Program &P;
  std::vector<LambdaExpr *> Lambdas;
  std::set<const ValueDecl *> MemberTemplateBases;
  int BreakTargets = 0, ContinueTargets = 0;
};

/// `{a, b}` as a value: it has no type of its own to return or pass on.
bool bracedList(const Expr *Value) {
  const Expr *Inner = Value->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner))
    return Construct->isListInitialization() || Construct->isStdInitListInitialization();
  return isa<InitListExpr, CXXStdInitializerListExpr>(Inner);
}

/// Finds every statement that sits directly in a compound statement of a
/// function written in the main file.
class StatementFinder : public RecursiveASTVisitor<StatementFinder> {
public:
  explicit StatementFinder(const Program &P) : P(P) {}
  std::vector<Site> Candidates;

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    const Decl *SavedTop = Top;
    if (!Top && D->getDeclContext() && D->getDeclContext()->isFileContext() && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D))
      Top = D;
    const FunctionDecl *SavedFunction = Function;
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      Function = F;
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Function = SavedFunction;
    Top = SavedTop;
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    const FunctionDecl *Saved = Function;
    Function = Lambda->getCallOperator();
    std::vector<const Stmt *> SavedLoops;
    SavedLoops.swap(Loops);
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
    Loops.swap(SavedLoops);
    Function = Saved;
    return Result;
  }
  bool TraverseStmt(Stmt *Statement) {
    if (!Statement)
      return true;
    bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Statement);
    if (Loop)
      Loops.insert(Loops.begin(), Statement);
    bool Result = RecursiveASTVisitor::TraverseStmt(Statement);
    if (Loop)
      Loops.erase(Loops.begin());
    return Result;
  }
  bool VisitCompoundStmt(CompoundStmt *Body) {
    if (!Function || !Top || Function->isDependentContext() || !P.inMainFile(Body->getBeginLoc()))
      return true;
    for (Stmt *Statement : Body->body())
      consider(Statement);
    return true;
  }

  /// Reads one statement as a site of Context's function.
  std::optional<Site> read(const Site &Context, const Stmt *Statement) {
    Function = Context.Function;
    Top = Context.TopLevel;
    Loops = Context.Loops;
    size_t Before = Candidates.size();
    consider(Statement);
    if (Candidates.size() == Before)
      return std::nullopt;
    return Candidates.back();
  }

private:
  void consider(const Stmt *Statement) {
    if (isa<SwitchCase, LabelStmt, NullStmt, CompoundStmt>(Statement))
      return;
    if (Statement->getBeginLoc().isMacroID() || Statement->getEndLoc().isMacroID())
      return;
    if (const auto *Declaration = dyn_cast<DeclStmt>(Statement))
      if (!Declaration->isSingleDecl() || !isa<VarDecl>(Declaration->getSingleDecl()))
        return;
    ASTContext &Context = P.context();
    CharSourceRange Range = Lexer::makeFileCharRange(tooling::getExtendedRange(*Statement, tok::semi, Context),
                                                     P.sourceManager(), P.langOptions());
    if (Range.isInvalid() || !P.inMainFile(Range.getBegin()))
      return;
    Site S;
    S.Statement = Statement;
    S.Function = Function;
    S.TopLevel = Top;
    S.Range = Range;
    S.Loops = Loops;
    S.FirstLine = P.line(Range.getBegin());
    S.LastLine = P.line(Range.getEnd());
    S.Trailing = trailingComment(Range.getEnd());
    if (const auto *Declaration = dyn_cast<DeclStmt>(Statement)) {
      const auto *Var = cast<VarDecl>(Declaration->getSingleDecl());
      if (Var->getInit() && Var->getInitStyle() == VarDecl::CInit && !Var->getType()->isReferenceType() &&
          !bracedList(Var->getInit()) && !Var->getInit()->getBeginLoc().isMacroID())
        S.Declared = Var;
      if (S.Declared) {
        S.Value = Var->getInit();
        S.ValueType = Var->getType().getNonReferenceType().getUnqualifiedType();
      }
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(Statement)) {
      S.Returns = true;
      QualType Type = Function->getReturnType();
      if (Return->getRetValue() && !Type->getContainedDeducedType() && !Type->isReferenceType() &&
          !Type->isVoidType() && !bracedList(Return->getRetValue()) &&
          !Return->getRetValue()->getBeginLoc().isMacroID()) {
        S.Value = Return->getRetValue();
        S.ValueType = Type.getUnqualifiedType();
      }
    }
    SiteScanner Scanner(S, P);
    Scanner.TraverseStmt(const_cast<Stmt *>(Statement));
    Scanner.finish();
    Candidates.push_back(std::move(S));
  }

  /// `// ...` after the statement, up to the end of its line.
  CharSourceRange trailingComment(SourceLocation End) const {
    const SourceManager &SM = P.sourceManager();
    unsigned Offset = SM.getFileOffset(End);
    const std::string &Code = P.code();
    size_t LineEnd = Code.find('\n', Offset);
    if (LineEnd == std::string::npos)
      LineEnd = Code.size();
    size_t Comment = Code.find_first_not_of(" \t", Offset);
    if (Comment >= LineEnd || Code.compare(Comment, 2, "//") != 0)
      return {};
    SourceLocation Start = End.getLocWithOffset(Comment - Offset);
    return CharSourceRange::getCharRange(Start, End.getLocWithOffset(LineEnd - Offset));
  }

  const Program &P;
  const Decl *Top = nullptr;
  const FunctionDecl *Function = nullptr;
  std::vector<const Stmt *> Loops;
};

bool contains(const Site &Outer, const Site &Inner, const SourceManager &SM) {
  return &Outer != &Inner && !SM.isBeforeInTranslationUnit(Inner.Range.getBegin(), Outer.Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Outer.Range.getEnd(), Inner.Range.getEnd());
}

} // namespace

Program::Program(std::string Code, std::unique_ptr<ASTUnit> Unit)
    : Code(std::move(Code)), Unit(std::move(Unit)) {
  unsigned Number = 0;
  llvm::StringRef Rest = this->Code;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    ++Number;
    if (markerPattern().match(Line))
      Markers.push_back(Number);
    Rest = Tail;
  }
}

std::unique_ptr<Program> Program::parse(std::string Code, const std::string &FileName,
                                        const std::vector<std::string> &Flags, std::string &Error) {
  FirstError Errors;
  std::vector<std::string> Args = Flags;
  Args.push_back("-fsyntax-only");
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      Code, Args, FileName, "placelint-reshape", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), tooling::FileContentMappings(), &Errors);
  if (!Unit || Unit->getDiagnostics().hasErrorOccurred()) {
    Error = Errors.Message.empty() ? "the compiler gave no AST" : Errors.Message;
    return nullptr;
  }
  return std::unique_ptr<Program>(new Program(std::move(Code), std::move(Unit)));
}

std::string Program::text(CharSourceRange Range) const {
  return Lexer::getSourceText(Range, sourceManager(), langOptions()).str();
}

unsigned Program::line(SourceLocation Loc) const {
  return sourceManager().getExpansionLineNumber(Loc);
}

std::string Program::indentation(SourceLocation Loc) const {
  const SourceManager &SM = sourceManager();
  unsigned Offset = SM.getFileOffset(SM.getExpansionLoc(Loc));
  size_t Start = Code.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  Start = Start == std::string::npos ? 0 : Start + 1;
  size_t End = Code.find_first_not_of(" \t", Start);
  return Code.substr(Start, End - Start);
}

bool Program::inMainFile(SourceLocation Loc) const {
  return Loc.isValid() && sourceManager().isInMainFile(sourceManager().getExpansionLoc(Loc));
}

CharSourceRange Site::withTrailing() const {
  return Trailing.isValid() ? CharSourceRange::getCharRange(Range.getBegin(), Trailing.getEnd()) : Range;
}

CharSourceRange Site::trailingWithSpace() const {
  return Trailing.isValid() ? CharSourceRange::getCharRange(Range.getEnd(), Trailing.getEnd()) : Trailing;
}

std::vector<Site> findSites(const Program &P, unsigned Limit) {
  StatementFinder Finder(P);
  Finder.TraverseDecl(P.translationUnit());
  std::vector<Site> &All = Finder.Candidates;
  const SourceManager &SM = P.sourceManager();

  std::vector<const Site *> Chosen;
  if (!P.markerLines().empty()) {
    for (unsigned Line : P.markerLines()) {
      const Site *Best = nullptr;
      for (const Site &S : All)
        if (S.FirstLine <= Line && Line <= S.LastLine &&
            (!Best || S.LastLine - S.FirstLine < Best->LastLine - Best->FirstLine))
          Best = &S;
      if (Best && std::find(Chosen.begin(), Chosen.end(), Best) == Chosen.end())
        Chosen.push_back(Best);
    }
  } else {
    std::vector<const Site *> Tensorial;
    for (const Site &S : All)
      if (computesWithTensors(S.Statement))
        Tensorial.push_back(&S);
    // The innermost ones: a loop is reshaped through the statements in it.
    for (const Site *S : Tensorial)
      if (std::none_of(Tensorial.begin(), Tensorial.end(),
                       [&](const Site *Other) { return contains(*S, *Other, SM); }))
        Chosen.push_back(S);
    if (Chosen.size() > Limit) {
      std::vector<const Site *> Spread;
      for (unsigned I = 0; I < Limit; ++I)
        Spread.push_back(Chosen[I * Chosen.size() / Limit]);
      Chosen = Spread;
    }
  }
  // A site inside another is rewritten with it.
  std::vector<Site> Sites;
  for (const Site *S : Chosen)
    if (std::none_of(Chosen.begin(), Chosen.end(), [&](const Site *Other) { return contains(*Other, *S, SM); }))
      Sites.push_back(*S);
  std::sort(Sites.begin(), Sites.end(), [&](const Site &A, const Site &B) {
    return SM.isBeforeInTranslationUnit(A.Range.getBegin(), B.Range.getBegin());
  });
  return Sites;
}

std::vector<Site> allStatements(const Program &P) {
  StatementFinder Finder(P);
  Finder.TraverseDecl(P.translationUnit());
  return std::move(Finder.Candidates);
}

std::optional<Site> siteFor(const Program &P, const Site &Context, const Stmt *Statement) {
  StatementFinder Finder(P);
  return Finder.read(Context, Statement);
}

bool computesWithTensors(const Stmt *Statement) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitExpr(Expr *E) {
      Found |= !E->isTypeDependent() && isTensorType(E->getType());
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Statement));
  return F.Found;
}

std::string spell(QualType Type, const ASTContext &Context) {
  if (Type->getContainedDeducedType())
    Type = Type.getCanonicalType();
  PrintingPolicy Policy(Context.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  Policy.SuppressScope = false;
  Policy.FullyQualifiedName = true;
  return TypeName::getFullyQualifiedName(Type, Context, Policy, /*WithGlobalNsPrefix=*/false);
}

namespace {

// api.def's classes and the namespaces fixes spell, by role.
struct ApiClass {
  llvm::StringRef Role, Name;
};
const ApiClass ApiClasses[] = {
#define PL_API_CLASS(Profile, Role, Name) {#Role, Name},
#include <placelint/api.def>
};

struct ApiSpelling {
  llvm::StringRef Profile, Role, Text;
};
const ApiSpelling ApiSpellings[] = {
#define PL_API_FIX_SPELLING(Profile, Role, Text) {#Profile, #Role, Text},
#include <placelint/api.def>
};

llvm::StringRef namespaceOf(llvm::StringRef Profile) {
  for (const ApiSpelling &Spelling : ApiSpellings)
    if (Spelling.Profile == Profile && Spelling.Role == "Namespace")
      return Spelling.Text;
  return {};
}

} // namespace

bool isApiClass(QualType Type, llvm::StringRef Role) {
  const CXXRecordDecl *Record = recordOf(Type);
  if (!Record)
    return false;
  std::string Qualified = Record->getCanonicalDecl()->getQualifiedNameAsString();
  return llvm::any_of(ApiClasses, [&](const ApiClass &Class) {
    return Class.Role == Role && Class.Name == Qualified;
  });
}

bool isTensorType(QualType Type) { return isApiClass(Type, "Tensor"); }

bool isDeviceType(QualType Type) { return isApiClass(Type, "Device"); }

bool isCopyable(QualType Type) {
  const CXXRecordDecl *Record = recordOf(Type);
  if (!Record || !Record->hasDefinition())
    return !Type->isArrayType();
  for (const CXXConstructorDecl *Constructor : Record->ctors())
    if (Constructor->isCopyConstructor())
      return !Constructor->isDeleted();
  return !Record->needsImplicitCopyConstructor() || !Record->defaultedCopyConstructorIsDeleted();
}

bool isDefaultConstructible(QualType Type) {
  const CXXRecordDecl *Record = recordOf(Type);
  if (!Record)
    return !Type->isReferenceType() && !Type.isConstQualified();
  return Record->hasDefinition() && Record->hasDefaultConstructor();
}

std::string tensorNamespace(const Program &P) {
  llvm::StringRef Pl = namespaceOf("Pl");
  for (const Decl *D : P.translationUnit()->decls())
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D))
      if (Namespace->getName() == Pl)
        return Pl.str();
  return namespaceOf("Libtorch").str();
}

} // namespace placelint::reshape
