// Module shapes: the program's own module reached through a base class with
// a virtual `forward` that it overrides, and a submodule applied through a
// container module (Sequential, ModuleList, ModuleDict) or a std::shared_ptr
// that holds it. Modules are shared handles: a container filled with a
// module holds that module, with its parameters and their device, so the
// call does what it did. A shape the seed's API cannot express (pl has no
// ModuleList) leaves the seed without a site.
#include "Transforms.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

namespace placelint::reshape {

using namespace clang;

namespace {

/// The API's module class itself (api.def's Module role, not the holder
/// template), when Record is or derives from it.
const CXXRecordDecl *moduleBase(const CXXRecordDecl *Record) {
  if (!Record || !Record->hasDefinition())
    return nullptr;
  if (!isa<ClassTemplateSpecializationDecl>(Record) && Record->isPolymorphic() &&
      isApiClass(QualType(Record->getTypeForDecl(), 0), "Module"))
    return Record;
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (const CXXRecordDecl *Found = moduleBase(Base.getType()->getAsCXXRecordDecl()))
      return Found;
  return nullptr;
}

/// The argument of a class template specialization that Record is or derives from.
const CXXRecordDecl *templateArgumentOf(const CXXRecordDecl *Record, llvm::function_ref<bool(const CXXRecordDecl *)> Is) {
  if (!Record || !Record->hasDefinition())
    return nullptr;
  if (const auto *Specialization = dyn_cast<ClassTemplateSpecializationDecl>(Record)) {
    const TemplateArgumentList &Arguments = Specialization->getTemplateArgs();
    if (Is(Record) && Arguments.size() >= 1 && Arguments[0].getKind() == TemplateArgument::Type)
      return Arguments[0].getAsType()->getAsCXXRecordDecl();
  }
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (const CXXRecordDecl *Found = templateArgumentOf(Base.getType()->getAsCXXRecordDecl(), Is))
      return Found;
  return nullptr;
}

/// The module a holder (`Linear`, the API's ModuleHolder<LinearImpl>) holds.
const CXXRecordDecl *heldByHolder(QualType Type) {
  return templateArgumentOf(Type.getNonReferenceType()->getAsCXXRecordDecl(), [](const CXXRecordDecl *Record) {
    return isApiClass(QualType(Record->getTypeForDecl(), 0), "Module");
  });
}

/// The module a std::shared_ptr points to.
const CXXRecordDecl *heldBySharedPtr(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->isInStdNamespace() || Record->getName() != "shared_ptr")
    return nullptr;
  return templateArgumentOf(Record, [](const CXXRecordDecl *) { return true; });
}

/// The module's one `forward` (declared in it or the nearest base that has
/// one): null when there is none, or it is overloaded or a template.
const CXXMethodDecl *onlyForward(const CXXRecordDecl *Module) {
  if (!Module || !Module->hasDefinition())
    return nullptr;
  DeclContextLookupResult Found = Module->lookup(&Module->getASTContext().Idents.get("forward"));
  if (Found.empty()) {
    if (Module->getNumBases() != 1)
      return nullptr;
    return onlyForward(Module->bases_begin()->getType()->getAsCXXRecordDecl());
  }
  if (!Found.isSingleResult())
    return nullptr;
  const auto *Method = dyn_cast<CXXMethodDecl>(Found.front());
  return Method && !Method->isStatic() ? Method : nullptr;
}

/// A class the program's text can name (not local, not a lambda).
bool nameable(const CXXRecordDecl *Record) {
  return Record && Record->getIdentifier() && !Record->isLocalClass() && !Record->isLambda();
}

/// A call of a module's forward in a site: `m(x)` on a holder, or
/// `m->forward(x)` on a holder or a shared_ptr, where `m` is a variable or
/// a field of `this`.
struct ModuleCall {
  CharSourceRange Callee; ///< `m` of `m(x)`, `m->forward` of `m->forward(x)`
  std::string Object;     ///< `m`
  const CXXRecordDecl *Module = nullptr;
  const CXXMethodDecl *Forward = nullptr;
  bool Holder = false; ///< m is a holder (else a shared_ptr)
  unsigned Arguments = 0;
};

class ModuleCalls : public RecursiveASTVisitor<ModuleCalls> {
public:
  explicit ModuleCalls(const Program &P) : P(P) {}
  std::vector<ModuleCall> Found;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; } // a holder outside it may not be captured
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getOperator() != OO_Call || Call->getNumArgs() == 0)
      return true;
    const Expr *Object = Call->getArg(0)->IgnoreImplicit();
    const CXXRecordDecl *Module = heldByHolder(Object->getType());
    note(Object, Module, true, fileRange(Object->getSourceRange()), Call->getNumArgs() - 1);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const auto *Member = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
    const auto *Arrow = Member ? dyn_cast<CXXOperatorCallExpr>(Member->getBase()->IgnoreImplicit()) : nullptr;
    if (!Member || !Member->isArrow() || !Arrow || Arrow->getOperator() != OO_Arrow ||
        Member->getMemberDecl()->getName() != "forward")
      return true;
    const Expr *Object = Arrow->getArg(0)->IgnoreImplicit();
    bool Holder = heldByHolder(Object->getType()) != nullptr;
    const CXXRecordDecl *Module = Holder ? heldByHolder(Object->getType()) : heldBySharedPtr(Object->getType());
    note(Object, Module, Holder, fileRange(Member->getSourceRange()), Call->getNumArgs());
    return true;
  }

private:
  CharSourceRange fileRange(SourceRange Range) const {
    return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), P.sourceManager(), P.langOptions());
  }
  void note(const Expr *Object, const CXXRecordDecl *Module, bool Holder, CharSourceRange Callee,
            unsigned Arguments) {
    bool Named = isa<DeclRefExpr>(Object);
    if (const auto *Field = dyn_cast<MemberExpr>(Object))
      Named = isa<CXXThisExpr>(Field->getBase()->IgnoreImplicit());
    if (!Named || !Module || !moduleBase(Module) || Callee.isInvalid() || !P.inMainFile(Callee.getBegin()))
      return;
    CharSourceRange ObjectRange = fileRange(Object->getSourceRange());
    if (ObjectRange.isInvalid())
      return;
    Found.push_back({Callee, P.text(ObjectRange), Module, onlyForward(Module), Holder, Arguments});
  }
  const Program &P;
};

enum class Container { Sequential, ModuleList, ModuleDict, SharedPtr };

/// The API's container module class, spelled, found beside its module class;
/// empty when the API has none of that name.
std::string containerClass(const CXXRecordDecl *ModuleBase, llvm::StringRef Name) {
  const DeclContext *Namespace = ModuleBase->getDeclContext();
  for (const NamedDecl *Found : Namespace->lookup(&ModuleBase->getASTContext().Idents.get(Name)))
    if (isa<CXXRecordDecl>(Found))
      return Found->getQualifiedNameAsString();
  return "";
}

/// Where the container can apply the module as the call did.
bool containable(const ModuleCall &Call, Container Into) {
  if (!Call.Forward)
    return false;
  if (Into == Container::Sequential)
    return Call.Arguments == 1 && Call.Forward->getNumParams() == 1 && !Call.Forward->isVariadic() &&
           isTensorType(Call.Forward->getParamDecl(0)->getType()) && isTensorType(Call.Forward->getReturnType());
  return nameable(Call.Module);
}

bool holdSubmodule(Edit &E, const std::vector<Site> &Sites, Container Into) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    ModuleCalls Calls(P);
    Calls.TraverseStmt(const_cast<Stmt *>(S.Statement));
    std::string Indent = P.indentation(S.Range.getBegin());
    std::string Declarations;
    for (const ModuleCall &Call : Calls.Found) {
      if (!containable(Call, Into))
        continue;
      const CXXRecordDecl *Base = moduleBase(Call.Module);
      std::string Module = spell(QualType(Call.Module->getTypeForDecl(), 0), P.context());
      std::string Pointer = Call.Holder ? Call.Object + ".ptr()" : Call.Object;
      std::string Held = E.fresh("reshape_module");
      std::string Class = containerClass(Base, Into == Container::Sequential   ? "Sequential"
                                               : Into == Container::ModuleList ? "ModuleList"
                                                                               : "ModuleDict");
      if (Into != Container::SharedPtr && Class.empty())
        continue;
      std::string Callee;
      switch (Into) {
      case Container::Sequential:
        Declarations += Class + " " + Held + ";\n" + Indent + Held + "->push_back(" + Call.Object + ");\n" + Indent;
        Callee = Held + "->forward";
        break;
      case Container::ModuleList:
        Declarations += Class + " " + Held + ";\n" + Indent + Held + "->push_back(" + Pointer + ");\n" + Indent;
        Callee = Held + "->at<" + Module + ">(0).forward";
        break;
      case Container::ModuleDict: {
        std::string Key = "\"" + Call.Object.substr(Call.Object.rfind('>') + 1) + "\"";
        E.include("memory");
        E.include("string");
        E.include("utility");
        E.include("vector");
        Declarations += Class + " " + Held + ";\n" + Indent + Held + "->update(std::vector<std::pair<std::string, " +
                        "std::shared_ptr<" + spell(QualType(Base->getTypeForDecl(), 0), P.context()) + ">>>{{" +
                        Key + ", " + Pointer + "}});\n" + Indent;
        Callee = Held + "->at<" + Module + ">(" + Key + ").forward";
        break;
      }
      case Container::SharedPtr:
        E.include("memory");
        Declarations += "std::shared_ptr<" + Module + "> " + Held + " = " + Pointer + ";\n" + Indent;
        Callee = Held + "->forward";
        break;
      }
      E.replace(Call.Callee, Callee);
    }
    if (Declarations.empty())
      continue;
    E.insertBefore(S.Range.getBegin(), Declarations);
    Applied = true;
  }
  return Applied;
}

/// The program's own modules that can take a base class with a virtual
/// forward: a class defined in the main file whose one base is the API's
/// module class, with one forward that is not yet virtual and has no
/// default argument.
class OwnModules : public RecursiveASTVisitor<OwnModules> {
public:
  explicit OwnModules(const Program &P) : P(P) {}
  std::vector<const CXXRecordDecl *> Found;

  bool VisitCXXRecordDecl(CXXRecordDecl *Record) {
    if (!Record->isThisDeclarationADefinition() || !nameable(Record) || Record->isDependentContext() ||
        isa<ClassTemplateSpecializationDecl>(Record) || Record->getNumBases() != 1 ||
        Record->getBeginLoc().isMacroID() || !P.inMainFile(Record->getBeginLoc()))
      return true;
    const CXXBaseSpecifier &Base = *Record->bases_begin();
    const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl();
    if (Base.isVirtual() || Base.getAccessSpecifier() != AS_public || !BaseRecord ||
        moduleBase(BaseRecord) != BaseRecord || Base.getTypeSourceInfo()->getTypeLoc().getBeginLoc().isMacroID())
      return true;
    const CXXMethodDecl *Forward = onlyForward(Record);
    if (!Forward || Forward->getParent() != Record || Forward->isVirtual() || Forward->isVariadic() ||
        Forward->getReturnType()->getContainedDeducedType() || Forward->getLocation().isMacroID())
      return true;
    for (const ParmVarDecl *Parameter : Forward->parameters())
      if (Parameter->hasDefaultArg())
        return true;
    for (const CXXConstructorDecl *Constructor : Record->ctors())
      for (const CXXCtorInitializer *Init : Constructor->inits())
        if (Init->isBaseInitializer() && Init->isWritten() && Init->getTypeSourceInfo()->getTypeLoc().getBeginLoc().isMacroID())
          return true;
    Found.push_back(Record);
    return true;
  }

private:
  const Program &P;
};

/// Every call of a module's forward written with an object: `m->forward(x)`,
/// `m.forward(x)`, and `m(x)` on its holder.
class ForwardCalls : public RecursiveASTVisitor<ForwardCalls> {
public:
  ForwardCalls(const Program &P, const CXXMethodDecl *Forward) : P(P), Forward(Forward) {}
  /// The text before `forward` (`m->`) with the object's text and
  /// constness; for a holder's `m(x)`, the object alone.
  struct Call {
    CharSourceRange Replaced;
    std::string Object;
    bool Pointer; ///< the object is a pointer or a handle: `*m` is the module
    bool Const;
    bool ThroughHolderCall; ///< `m(x)`
  };
  std::vector<Call> Found;

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Member) {
    const auto *Callee = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
    if (!Callee || Member->getMethodDecl()->getCanonicalDecl() != Forward->getCanonicalDecl() || Callee->isImplicitAccess() ||
        isa<CXXThisExpr>(Callee->getBase()->IgnoreImplicit()))
      return true;
    CharSourceRange Object = fileRange(SourceRange(Callee->getBeginLoc(), Callee->getOperatorLoc()), false);
    CharSourceRange Replaced = fileRange(SourceRange(Callee->getBeginLoc(), Callee->getMemberLoc()), false);
    bool Const = Member->getImplicitObjectArgument()->getType().getNonReferenceType()->isPointerType()
                     ? Member->getImplicitObjectArgument()->getType()->getPointeeType().isConstQualified()
                     : Member->getImplicitObjectArgument()->getType().isConstQualified();
    note(Replaced, Object, Callee->isArrow(), Const, false);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getOperator() != OO_Call || Call->getNumArgs() == 0)
      return true;
    const Expr *Object = Call->getArg(0)->IgnoreImplicit();
    const CXXRecordDecl *Held = heldByHolder(Object->getType());
    if (!Held || Held->getCanonicalDecl() != Forward->getParent()->getCanonicalDecl())
      return true;
    CharSourceRange Range = fileRange(Object->getSourceRange(), true);
    note(Range, Range, true, false, true);
    return true;
  }

private:
  CharSourceRange fileRange(SourceRange Range, bool Tokens) const {
    return Lexer::makeFileCharRange(Tokens ? CharSourceRange::getTokenRange(Range) : CharSourceRange::getCharRange(Range),
                                    P.sourceManager(), P.langOptions());
  }
  void note(CharSourceRange Replaced, CharSourceRange Object, bool Pointer, bool Const, bool Holder) {
    if (Replaced.isInvalid() || Object.isInvalid() || !P.inMainFile(Replaced.getBegin()))
      return;
    Found.push_back({Replaced, P.text(Object), Pointer, Const, Holder});
  }
  const Program &P;
  const CXXMethodDecl *Forward;
};

/// `ReshapeModuleBase0`, an abstract module with the derived module's forward
/// as a pure virtual; the module derives from it, its forward overrides, and
/// every call of it goes through a reference to the base.
bool virtualForward(Edit &E, const std::vector<Site> &) {
  const Program &P = E.program();
  const ASTContext &Context = P.context();
  OwnModules Modules(P);
  Modules.TraverseDecl(P.translationUnit());
  bool Applied = false;
  for (const CXXRecordDecl *Module : Modules.Found) {
    const CXXMethodDecl *Forward = onlyForward(Module);
    const CXXBaseSpecifier &Base = *Module->bases_begin();
    CharSourceRange BaseName = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Base.getTypeSourceInfo()->getTypeLoc().getSourceRange()), P.sourceManager(),
        P.langOptions());
    FunctionTypeLoc Declarator = Forward->getTypeSourceInfo()->getTypeLoc().getAsAdjusted<FunctionTypeLoc>();
    if (BaseName.isInvalid() || !Declarator || Declarator.getLocalRangeEnd().isMacroID())
      continue;
    std::vector<std::string> Parameters;
    for (const ParmVarDecl *Parameter : Forward->parameters())
      Parameters.push_back(spell(Parameter->getType(), Context) + " " + Parameter->getNameAsString());
    std::string Name = E.fresh("ReshapeModuleBase");
    std::string Qualifiers = Forward->isConst() ? " const" : "";
    // The base takes the module class's constructors, for a module that
    // names its base in an initializer (`Module("name")`), which now names
    // the new base.
    std::string ModuleClass = spell(Base.getType(), Context);
    E.before(Module, "struct " + Name + " : " + ModuleClass + " {\n  using " + ModuleClass +
                         "::" + Base.getType()->getAsCXXRecordDecl()->getNameAsString() + ";\n  virtual " +
                         spell(Forward->getReturnType(), Context) + " forward(" + llvm::join(Parameters, ", ") + ")" +
                         Qualifiers + " = 0;\n};\n");
    E.replace(BaseName, Name);
    for (const CXXConstructorDecl *Constructor : Module->ctors())
      for (const CXXCtorInitializer *Init : Constructor->inits())
        if (Init->isBaseInitializer() && Init->isWritten())
          E.replace(Lexer::makeFileCharRange(CharSourceRange::getTokenRange(
                                                 Init->getTypeSourceInfo()->getTypeLoc().getSourceRange()),
                                             P.sourceManager(), P.langOptions()),
                    Name);
    E.insertAfter(Lexer::getLocForEndOfToken(Declarator.getLocalRangeEnd(), 0, P.sourceManager(), P.langOptions()),
                  " override");
    ForwardCalls Calls(P, Forward);
    Calls.TraverseDecl(P.translationUnit());
    for (const ForwardCalls::Call &Call : Calls.Found) {
      std::string Reference = "static_cast<" + std::string(Call.Const ? "const " : "") + Name + " &>(" +
                              (Call.Pointer ? "*" : "") + Call.Object + ")";
      E.replace(Call.Replaced, Reference + (Call.ThroughHolderCall ? ".forward" : "."));
    }
    Applied = true;
  }
  return Applied;
}

} // namespace

void addModuleTransforms(std::vector<Transform> &Into) {
  Into.push_back({"module-virtual",
                  "the program's module derives from a base with a virtual forward it overrides, called through the base",
                  virtualForward});
  Into.push_back({"module-sequential", "a submodule applied through a Sequential holding it",
                  [](Edit &E, const std::vector<Site> &Sites) { return holdSubmodule(E, Sites, Container::Sequential); }});
  Into.push_back({"module-list", "a submodule applied through a ModuleList holding it",
                  [](Edit &E, const std::vector<Site> &Sites) { return holdSubmodule(E, Sites, Container::ModuleList); }});
  Into.push_back({"module-dict", "a submodule applied through a ModuleDict holding it by name",
                  [](Edit &E, const std::vector<Site> &Sites) { return holdSubmodule(E, Sites, Container::ModuleDict); }});
  Into.push_back({"module-shared-ptr", "a submodule applied through a std::shared_ptr to it",
                  [](Edit &E, const std::vector<Site> &Sites) { return holdSubmodule(E, Sites, Container::SharedPtr); }});
}

} // namespace placelint::reshape
