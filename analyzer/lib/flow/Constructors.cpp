// Constructions: copies pass the value on; a Device, TensorOptions or a
// module is made on the device its arguments name (modules on the cpu).
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::evaluateConstruct(const CXXConstructExpr &Construct) {
  ValueKind Kind = Model.classify(Construct.getType());
  bool IsCopy = Construct.getNumArgs() >= 1 &&
                Construct.getConstructor()->isCopyOrMoveConstructor();
  if (IsCopy && Kind != ValueKind::Other)
    return yield(Construct, valueOf(Construct.getArg(0)));
  // `std::optional<Tensor> held{t}`: an optional is what it was made from.
  if (Kind != ValueKind::Other && Construct.getNumArgs() == 1 && ApiModel::isOptional(Construct.getType()))
    return yield(Construct, valueOf(Construct.getArg(0)));
  llvm::SmallVector<const Expr *, 4> Args(Construct.arguments());
  if (std::optional<llvm::ArrayRef<const Expr *>> Optimizer =
          Model.optimizerArguments(Construct))
    recordOptimizer(Construct, *Optimizer);
  switch (Kind) {
  case ValueKind::Device:
    return deviceFromArguments(Args);
  case ValueKind::TensorOptions: {
    ValueKind FirstKind =
        Args.empty() ? ValueKind::Other : Model.classify(Args[0]->getType());
    bool NamesDevice = !Args.empty() && (stringLiteralIn(Args[0]) ||
                                         FirstKind == ValueKind::Device ||
                                         FirstKind == ValueKind::DeviceType);
    if (NamesDevice)
      return deviceFromArguments(Args);
    ValueFact Options = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()));
    Options.OptionsWithoutDevice = true;
    return Options;
  }
  case ValueKind::Module:
    return newModule(Construct, Construct.getBeginLoc(), Args);
  case ValueKind::TensorList:
  case ValueKind::Aggregate:
    // `std::pair<Tensor, Tensor>(h, c)`, `std::tuple<...>{a, b}`.
    if (Model.isTuple(Construct.getType()))
      return newTuple(Construct, Args);
    if (Kind == ValueKind::Aggregate)
      return constructByUser(Construct);
    if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(&Construct))
      return newList(Construct, *Elements, /*InOrder=*/true);
    // vector<Tensor>(n, t): n copies of t; vector<Tensor>(): empty.
    return Args.size() == 2 ? newList(Construct, Args[1], /*InOrder=*/false) : Args.empty() ? ValueFact()
                                                              : ValueFact::unknown();
  case ValueKind::Tensor:
  case ValueKind::DeviceType:
  case ValueKind::Other:
    break;
  }
  return untracked(Construct);
}

namespace {

// Whether Body names Decl anywhere (reads it, writes it, takes its address).
bool mentions(const Stmt &Body, const ValueDecl &Decl) {
  return findInTree(&Body, [&](const Stmt &S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(&S))
      return Ref->getDecl() == &Decl;
    const auto *Member = dyn_cast<MemberExpr>(&S);
    return Member && Member->getMemberDecl() == &Decl;
  });
}

} // namespace

std::optional<unsigned> DeviceFlow::argumentStoredIn(const CXXConstructExpr &Construct,
                                                     const FieldDecl &Field) {
  const CXXConstructorDecl *Ctor = Construct.getConstructor();
  const auto *Definition =
      dyn_cast_or_null<CXXConstructorDecl>(Ctor ? Ctor->getDefinition() : nullptr);
  const auto *Body = Definition ? dyn_cast_or_null<CompoundStmt>(Definition->getBody()) : nullptr;
  if (!Body || mentions(*Body, Field))
    return std::nullopt;
  for (const CXXCtorInitializer *Init : Definition->inits()) {
    if (Init->getMember() != &Field || !Init->isWritten())
      continue;
    const auto *Ref = dyn_cast<DeclRefExpr>(stripCopies(Init->getInit())->IgnoreParenImpCasts());
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || Param->getFunctionScopeIndex() >= Construct.getNumArgs() ||
        mentions(*Body, *Param))
      return std::nullopt;
    return Param->getFunctionScopeIndex();
  }
  return std::nullopt;
}

ValueFact DeviceFlow::constructByUser(const CXXConstructExpr &Construct) {
  // The fields as the constructor leaves them (an implicit one included:
  // `Config() = default` with `Device device{kCUDA};` in the class).
  const CXXConstructorDecl *Ctor = Construct.getConstructor();
  const FunctionDecl *Definition = Ctor ? Ctor->getDefinition() : nullptr;
  if (!Definition || !Definition->hasBody() ||
      Context.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return ValueFact::unknown();
  llvm::SmallVector<AbstractValue, 4> Args =
      argumentValues(llvm::ArrayRef(Construct.getArgs(), Construct.getNumArgs()));
  CallSummary Summary = Summaries.summarize(*Definition, CallInputs{Args});
  if (!Summary.Object)
    return ValueFact::unknown();
  // The summary serves every caller, so it forgets what made the values it
  // was given: a field initialised straight from a parameter that the body
  // never touches holds that argument, made where the argument was.
  for (auto &[Relative, Fact] : Summary.Object->Parts) {
    const FieldDecl *Field = Relative.steps().front().asField();
    std::optional<unsigned> Index =
        Relative.depth() == 1 && Field ? argumentStoredIn(Construct, *Field) : std::nullopt;
    if (Index && Fact.Devices == Args[*Index].Whole.Devices) {
      Fact.MadeBy = Args[*Index].Whole.MadeBy;
      Fact.MadeIn = Args[*Index].Whole.MadeIn;
    }
  }
  return yield(Construct, std::move(*Summary.Object));
}

ValueFact DeviceFlow::evaluateInitList(const InitListExpr &List) {
  ValueKind Kind = Model.classify(List.getType());
  llvm::ArrayRef<const Expr *> Inits(List.getInits(), List.getNumInits());
  if (Kind == ValueKind::TensorList) {
    // `std::array<Tensor, 2>{a, b}`: its one member, a C array, holds them
    // (the braces elided around it are explicit in the AST).
    if (Inits.size() == 1)
      if (const auto *Inner = dyn_cast<InitListExpr>(Inits[0]->IgnoreImplicit());
          Inner && Inner->getType()->isArrayType())
        Inits = llvm::ArrayRef(Inner->getInits(), Inner->getNumInits());
    return newList(List, Inits, /*InOrder=*/true);
  }
  const CXXRecordDecl *Record = List.getType()->getAsCXXRecordDecl();
  if (Kind != ValueKind::Aggregate || !Record || Record->getNumBases() != 0 ||
      List.getNumInits() == 0)
    return untracked(List);
  // Each field from its initializer, in declaration order.
  AbstractValue Made(ValueFact::unknown());
  unsigned I = 0;
  for (const FieldDecl *Field : Record->fields()) {
    if (I == Inits.size())
      break;
    const Expr *Init = Inits[I++];
    if (Model.classify(Field->getType()) != ValueKind::Other)
      Made.set(*AccessPath().child(AccessStep::field(Field)), valueOf(Init));
  }
  return yield(List, std::move(Made));
}

void DeviceFlow::recordOptimizer(const Expr &Construction, llvm::ArrayRef<const Expr *> Args) {
  // An optimizer is given the tensors it updates: `Adam({w, b}, ...)`, or a
  // vector of them.
  if (Args.empty())
    return;
  if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(Args[0]))
    for (const Expr *Element : *Elements)
      Facts.record(
          ParameterUse{&Construction, Element, factOf(Element), ParameterUseKind::Optimizer});
  else if (Model.classify(Args[0]->getType()) == ValueKind::TensorList)
    Facts.record(
        ParameterUse{&Construction, Args[0], factOf(Args[0]), ParameterUseKind::Optimizer});
}

} // namespace placelint::analysis
