// Calls of free functions: std::move/forward and make_shared of a module,
// the API's calls (ApiCalls.cpp), and the unit's own functions through
// their summaries.
#include "flow/DeviceFlow.h"
#include "flow/FunctionSummaries.h"

#include "ApiSpellings.h"
#include "BodyFacts.h"
#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis {

using namespace clang;

ValueFact DeviceFlow::evaluateCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  bool Tracked = Model.classify(Call.getType()) != ValueKind::Other;
  if (!Callee)
    return Tracked ? resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown) : ValueFact();
  ApiCall Api = Model.classifyCall(Call);
  if (Callee->isInStdNamespace() && Api.Kind == CallKind::Unmodelled)
    for (const Expr *Arg : Call.arguments())
      if (const CXXMethodDecl *Operator = lambdaCallOperator(*Arg))
        return callBack(Call, *Arg, *Operator);
  switch (Api.Kind) {
  case CallKind::StdMove:
    if (Call.getNumArgs() == 1)
      return yield(Call, valueOf(Call.getArg(0)));
    break;
  case CallKind::TupleMake: {
    llvm::SmallVector<const Expr *, 4> Elements(Call.arguments());
    return newTuple(Call, Elements);
  }
  case CallKind::TupleGet:
    if (Call.getNumArgs() == 1)
      if (std::optional<unsigned> Index = tupleIndex(Call))
        return yield(Call,
                     valueOf(Call.getArg(0)).below(*AccessPath().child(AccessStep::element(*Index))));
    break;
  case CallKind::MakeShared: {
    llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
    if (Model.classify(Call.getType()) == ValueKind::Module)
      return newModule(Call, Call.getExprLoc(), Args);
    // `std::make_shared<Config>(...)`: what it points to, made from Args.
    const CXXRecordDecl *Pointer = Call.getType()->getAsCXXRecordDecl();
    const auto *Made = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Pointer);
    if (Tracked && Made && Made->getTemplateArgs().size() >= 1 &&
        Made->getTemplateArgs()[0].getKind() == TemplateArgument::Type && Args.size() == 1 &&
        Context.hasSameUnqualifiedType(Made->getTemplateArgs()[0].getAsType(),
                                       Args[0]->getType().getNonReferenceType()))
      return yield(Call, valueOf(Args[0]));
    break;
  }
  case CallKind::OptimizerConstruction:
    recordOptimizer(Call, llvm::ArrayRef(Call.getArgs(), Call.getNumArgs()));
    return ValueFact();
  case CallKind::Unmodelled:
    break;
  default:
    return evaluateApiCall(Call, Api);
  }
  return summaryCall(Call, *Callee);
}

const CXXMethodDecl *DeviceFlow::lambdaCallOperator(const Expr &Arg) const {
  const CXXRecordDecl *Closure = Arg.getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!Closure || !Closure->isLambda() || Closure->isGenericLambda())
    return nullptr;
  return Closure->getLambdaCallOperator();
}

namespace {

// The list a range argument walks: `v.begin()`, `std::begin(v)`,
// `std::back_inserter(v)` name v.
const Expr *listOfRange(const Expr &Range, const ApiModel &Model) {
  const Expr *Iterator = stripCopies(&Range)->IgnoreParenImpCasts();
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Iterator)) {
    const Expr *Object = Method->getImplicitObjectArgument();
    return Object && Model.classify(Object->getType()) == ValueKind::TensorList ? Object : nullptr;
  }
  if (const auto *Call = dyn_cast<CallExpr>(Iterator); Call && Call->getNumArgs() >= 1) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->isInStdNamespace() &&
        Model.classify(Call->getArg(0)->getType()) == ValueKind::TensorList)
      return Call->getArg(0);
  }
  return nullptr;
}

// The container whose start or end (Bound: "begin" or "end") a range
// argument is (`v.begin()`, `std::end(v)`, `v.cbegin()`): the variable named.
const ValueDecl *containerOfBound(const Expr &Arg, llvm::StringRef Bound) {
  const Expr *Iterator = stripCopies(&Arg)->IgnoreParenImpCasts();
  const Expr *Object = nullptr;
  const FunctionDecl *Callee = nullptr;
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Iterator)) {
    Object = Method->getImplicitObjectArgument();
    Callee = Method->getMethodDecl();
  } else if (const auto *Call = dyn_cast<CallExpr>(Iterator); Call && Call->getNumArgs() == 1) {
    Object = Call->getArg(0);
    Callee = Call->getDirectCallee();
    if (Callee && !Callee->isInStdNamespace())
      Callee = nullptr;
  }
  if (!Object || !Callee || !Callee->getIdentifier())
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  if (Name != Bound && Name != ("c" + Bound).str())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  return Ref ? Ref->getDecl() : nullptr;
}

// Whether the first two arguments of a std algorithm are the whole of one
// container (`v.begin(), v.end()`): its callback then sees every element.
const ValueDecl *wholeRange(llvm::ArrayRef<const Expr *> Args) {
  if (Args.size() < 2)
    return nullptr;
  const ValueDecl *First = containerOfBound(*Args[0], "begin");
  return First && First == containerOfBound(*Args[1], "end") ? First : nullptr;
}

// Whether a container's type gives it elements: a `std::array<T, N>` (a
// std sequence holder whose size is its type's) or a built-in array of
// N > 0 elements.
bool hasElements(QualType Type) {
  Type = Type.getNonReferenceType();
  if (const auto *Fixed = dyn_cast_or_null<ConstantArrayType>(Type->getAsArrayTypeUnsafe()))
    return Fixed->getSize().getZExtValue() > 0;
  const auto *Array =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
  if (!Array || !Array->isInStdNamespace() ||
      stdHolder(Array->getQualifiedNameAsString()) != StdHolder::Sequence)
    return false;
  const TemplateArgumentList &Args = Array->getTemplateArgs();
  return Args.size() == 2 && Args[1].getKind() == TemplateArgument::Integral &&
         Args[1].getAsIntegral().getZExtValue() > 0;
}

} // namespace

ValueFact DeviceFlow::callBack(const CallExpr &Call, const Expr &Callable,
                               const CXXMethodDecl &Operator) {
  // The ranges: the first argument is walked (its elements are what the
  // callback is given); a later list argument receives what the callback
  // returns (`std::transform`'s output, through an inserter or its begin()).
  llvm::ArrayRef<const Expr *> Args(Call.getArgs(), Call.getNumArgs());
  const Expr *Input = Args.empty() ? nullptr : listOfRange(*Args.front(), Model);
  const Expr *Output = nullptr;
  for (const Expr *Arg : Args.drop_front())
    if (const Expr *List = listOfRange(*Arg, Model); List && List != Input)
      Output = List;
  AbstractValue Element =
      Input ? AbstractValue(factOf(Input)) : AbstractValue(ValueFact::unknown());
  Callback Back;
  for (const ParmVarDecl *Param : Operator.parameters())
    Back.Arguments.push_back(Model.classify(Param->getType()) != ValueKind::Other
                                 ? Element
                                 : AbstractValue(ValueFact::unknown()));
  // Called on each element of the range: at least once over a container
  // whose type gives it elements, else zero or more times, and then what it
  // leaves is joined with what was.
  const ValueDecl *Whole = wholeRange(Args);
  FlowState Before = Current;
  summaryCall(Call, Operator, &Callable, &Back);
  if (!Whole || !hasElements(Whole->getType()))
    for (auto &[Path, Fact] : Current)
      if (auto It = Before.find(Path); It != Before.end())
        Fact = Fact.join(It->second);
  // An element taken by non-const reference is written back to the list
  // (each element, when the range is the whole list: an empty list has
  // none to keep); what the callback returns is added to the output list.
  // Each list is what it was when the call named it (an inserter, taking
  // it by reference, made it unknown since).
  forgetReferenceArguments(Call, *Call.getDirectCallee());
  std::optional<Place> InputPlace = Input ? placeOf(Input) : std::nullopt;
  bool EveryElement = Whole && Input && trackedDecl(Input) == Whole;
  for (unsigned I = 0; InputPlace && I < Back.Summary.ByReference.size(); ++I)
    if (const std::optional<AbstractValue> &Written = Back.Summary.ByReference[I])
      write({InputPlace->Path},
            EveryElement ? *Written : AbstractValue(factOf(Input)).join(*Written), nullptr,
            Call.getExprLoc());
  if (std::optional<Place> OutputPlace = Output ? placeOf(Output) : std::nullopt;
      OutputPlace && Model.classify(Operator.getReturnType()) != ValueKind::Other)
    write({OutputPlace->Path}, AbstractValue(factOf(Output)).join(Back.Summary.Result), nullptr,
          Call.getExprLoc());
  return untracked(Call);
}

std::optional<unsigned> DeviceFlow::tupleIndex(const CallExpr &Get) const {
  const FunctionDecl *Callee = Get.getDirectCallee();
  const TemplateArgumentList *Args = Callee ? Callee->getTemplateSpecializationArgs() : nullptr;
  if (!Args || Args->size() == 0 || (*Args)[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<unsigned>((*Args)[0].getAsIntegral().getZExtValue());
}

llvm::SmallVector<AbstractValue, 4>
DeviceFlow::argumentValues(llvm::ArrayRef<const Expr *> Args) {
  llvm::SmallVector<AbstractValue, 4> Values;
  for (const Expr *Arg : Args) {
    ValueKind Kind = Model.classify(Arg->getType());
    Values.push_back(Kind != ValueKind::Other ? valueOf(Arg)
                                              : AbstractValue(ValueFact::unknown()));
    // A device handed to code of the unit is a request: it is there to be used.
    if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType ||
        Kind == ValueKind::TensorOptions)
      noteCudaUse(*Arg, Values.back().Whole);
  }
  return Values;
}

ValueFact DeviceFlow::summaryCall(const CallExpr &Call, const FunctionDecl &Callee,
                                  const Expr *Object, Callback *Back) {
  const FunctionDecl *Definition = Callee.getDefinition();
  const auto *Method =
      dyn_cast<CXXMethodDecl>(Definition ? Definition : static_cast<const FunctionDecl *>(&Callee));
  bool IsLambda = Method && Method->getParent()->isLambda();
  bool ChangesObject = Object && Method && !Method->isConst() && !Method->isStatic();
  bool OnThis = Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
  bool Tracked = Model.classify(Call.getType()) != ValueKind::Other;
  if (!hasUserBody(Definition, Context) || (Method && Method->isVirtual())) {
    forgetReferenceArguments(Call, Callee);
    if (ChangesObject && OnThis)
      forgetFields();
    else if (std::optional<Place> Where = ChangesObject ? placeOf(Object) : std::nullopt;
             Where && Model.classify(Object->getType()) == ValueKind::Aggregate)
      write({Where->Path}, ValueFact::unknown(), nullptr, Call.getExprLoc());
    return Tracked ? resultOf(Call, DeviceSet::unknown(), ZeroDim::Unknown) : ValueFact();
  }
  // A member call's arguments exclude the object; an operator() call's
  // first argument is the object.
  // A callback's arguments come from the std facility that calls it, not
  // from expressions here.
  llvm::ArrayRef<const Expr *> ArgExprs(Call.getArgs(), Call.getNumArgs());
  if (Back)
    ArgExprs = {};
  else if (isa<CXXOperatorCallExpr>(Call) && Method && !ArgExprs.empty())
    ArgExprs = ArgExprs.drop_front();
  llvm::SmallVector<AbstractValue, 4> Args =
      Back ? llvm::SmallVector<AbstractValue, 4>(Back->Arguments) : argumentValues(ArgExprs);
  llvm::SmallVector<std::optional<std::int64_t>, 4> Integers(Args.size(), std::nullopt);
  for (unsigned I = 0; I < ArgExprs.size(); ++I)
    if (ArgExprs[I]->getType()->isIntegerType())
      Integers[I] = integerOf(ArgExprs[I]);
  CallInputs Given{Args, Integers};
  // The object of a method: `this` (the fields as they are here), or a
  // value with parts by field.
  AbstractValue ObjectValue(ValueFact::unknown());
  if (Object && !IsLambda && Method && !Method->isStatic()) {
    ObjectValue = OnThis ? objectOf(Current) : valueOf(Object);
    Given.Object = &ObjectValue;
  }
  // A lambda finds what it captured: by reference (its object's fields
  // too, when it captured `this`), as it is now; by copy, as it was made.
  // One made in this function was made with what this analysis gives it
  // (an instantiation's parameters); the summaries' record, which joins
  // every analysis that made it, serves only one made elsewhere.
  EntryFacts Captured;
  const LambdaExpr *Lambda = IsLambda ? Facts.body().lambdaOf(*Method->getParent()) : nullptr;
  if (IsLambda) {
    Facts.recordLambdaCall(*Definition, Args);
    if (const EntryFacts *Made = Lambda ? std::as_const(Facts).capturesOf(*Lambda)
                                        : Summaries.capturesOf(*Method->getParent()))
      Captured = *Made;
    // This analysis' record marks the tensors it made (MadeIn) for the
    // lambda's own analysis at the top level; to a summary they are the
    // caller's values, as those read from the state below.
    for (auto &[Path, Fact] : Captured.Known)
      if (Fact.MadeIn == &Facts)
        Fact.MadeIn = nullptr;
    if (Lambda)
      for (const LambdaCapture &Capture : Lambda->captures())
        for (const auto &[Path, Fact] : Current)
          if ((Capture.capturesThis() && isa<FieldDecl>(Path.root())) ||
              (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef &&
               Path.root() == Capture.getCapturedVar()))
            Captured.Known[Path] = Fact;
    Given.Captures = &Captured;
  }
  CallSummary Summary = Summaries.summarize(*Definition, Given);
  for (CalleeFailure Failure : Summary.Failures) {
    Failure.Finding.Through = &Call;
    Facts.record(std::move(Failure));
  }
  for (const UnsynchronizedReadFinding &Read : Summary.PendingReads)
    Facts.record(ReadThroughCall{Read, &Call});
  // What the object's field holds here, given as an expression of this
  // function, the way a parameter is given its argument: the initializer
  // the object's construction gave it (an aggregate's, or the argument its
  // constructor stores unchanged), while the field still holds that value
  // (the maker and devices it had there). Null otherwise: for `this`'s
  // (the caller's own field, which its callers give in turn), for an
  // object of no variable here, or set since (a setter, an assignment).
  auto FieldGiven = [&](const FieldDecl &Field) -> const Expr * {
    const auto *Ref =
        Object ? dyn_cast<DeclRefExpr>(stripCopies(Object)->IgnoreParenImpCasts()) : nullptr;
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
      return nullptr;
    const Expr *Init = Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr;
    const Expr *Stored = nullptr;
    if (const auto *List = dyn_cast_or_null<InitListExpr>(Init))
      Stored = Field.getFieldIndex() < List->getNumInits() ? List->getInit(Field.getFieldIndex())
                                                           : nullptr;
    else if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init))
      if (std::optional<unsigned> Index = argumentStoredIn(*Construct, Field))
        Stored = Construct->getArg(*Index);
    const ValueFact *Then = Stored ? Facts.factAt(Stored) : nullptr;
    ValueFact Now = read(*AccessPath(Var).child(AccessStep::field(&Field))).Whole;
    return Then && Then->MadeBy == Now.MadeBy && Then->Devices == Now.Devices ? Stored : nullptr;
  };
  for (const CalleeTransfer &Moved : Summary.Transfers) {
    TransferThroughCall Here{Moved, &Call, {}};
    for (const CallInput &Input : Moved.Inputs) {
      const auto *Field = dyn_cast_or_null<FieldDecl>(Input.Captured);
      Here.Given.push_back(Input.Parameter && *Input.Parameter < ArgExprs.size()
                               ? ArgExprs[*Input.Parameter]
                           : Field && Method && !IsLambda && Field->getParent() == Method->getParent()
                               ? FieldGiven(*Field)
                               : nullptr);
    }
    Facts.record(std::move(Here));
  }
  // Inside a module's methods, its registered state is on "the device of"
  // the module: here, the device of the module it is called on.
  const CXXRecordDecl *Class = Method ? Method->getParent() : nullptr;
  DeviceSet ModuleDevices = Object && !OnThis && ObjectValue.Whole.Devices.isKnown()
                                ? ObjectValue.Whole.Devices
                                : DeviceSet::unknown();
  auto PlaceModule = [&](AbstractValue &Value) {
    if (!Class)
      return;
    AbstractDevice Own = AbstractDevice::ofModule(Class);
    Value.Whole.Devices = Value.Whole.Devices.substitute(Own, ModuleDevices);
    for (auto &[Relative, Fact] : Value.Parts)
      Fact.Devices = Fact.Devices.substitute(Own, ModuleDevices);
  };

  // What the callee leaves in its object and in what it takes by reference.
  if (ChangesObject && Summary.Object) {
    if (!OnThis)
      PlaceModule(*Summary.Object);
    std::optional<Place> Where = OnThis ? std::nullopt : placeOf(Object);
    for (const auto &[Relative, Fact] : Summary.Object->Parts) {
      const FieldDecl *Field = Relative.steps().front().asField();
      if (OnThis && Field) {
        AccessPath Path(Field);
        for (AccessStep Step : Relative.steps().drop_front())
          Path = *Path.child(Step);
        write({Path}, Fact, nullptr, Call.getExprLoc());
      } else if (Where) {
        if (std::optional<AccessPath> Path = Where->Path.append(Relative))
          write({*Path, Where->OneElement}, Fact, nullptr, Call.getExprLoc());
      }
    }
  }
  // What a lambda wrote through its captures by reference, to the places
  // they name here: its object's parts under the captures' fields. A call
  // the summaries cannot say (recursion, too deep) may have written any.
  if (IsLambda) {
    llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
    FieldDecl *ThisField = nullptr;
    Method->getParent()->getCaptureFields(Fields, ThisField);
    for (const auto &[Var, Field] : Fields) {
      AccessPath Under = *AccessPath().child(AccessStep::field(Field));
      bool Written = !Summary.Object && Field->getType()->isReferenceType() &&
                     Model.classify(Var->getType()) != ValueKind::Other;
      AbstractValue Value =
          Summary.Object ? Summary.Object->below(Under) : AbstractValue(ValueFact::unknown());
      for (const AbstractValue::Part &Part : Summary.Object ? Summary.Object->Parts
                                                            : llvm::ArrayRef<AbstractValue::Part>())
        Written = Written || Under.covers(Part.first);
      if (!Written)
        continue;
      const auto *Reference = dyn_cast<VarDecl>(Var);
      const Expr *Bound = Reference ? Facts.body().boundPlace(*Reference) : nullptr;
      std::optional<Place> Where = Bound ? placeOf(Bound) : std::optional(Place{AccessPath(Var)});
      if (Where)
        write(*Where, Value, nullptr, Call.getExprLoc());
    }
    // Through a captured `this`: the fields of the object it changed.
    if (ThisField && !Summary.Object)
      forgetFields();
    for (const auto &[Relative, Fact] : ThisField && Summary.Object
                                            ? Summary.Object->Parts
                                            : llvm::ArrayRef<AbstractValue::Part>()) {
      const FieldDecl *Field = Relative.steps().front().asField();
      if (!Field || Field->getParent() == Method->getParent())
        continue;
      AccessPath Path(Field);
      for (AccessStep Step : Relative.steps().drop_front())
        Path = *Path.child(Step);
      // Not one it left as given: the caller's facts of it (its maker) stay.
      auto AsGiven = Captured.Known.find(Path);
      if (AsGiven == Captured.Known.end() || AsGiven->second.Devices != Fact.Devices ||
          AsGiven->second.Dim != Fact.Dim || Fact.MadeIn)
        write({Path}, Fact, nullptr, Call.getExprLoc());
    }
  }
  for (unsigned I = 0; I < ArgExprs.size() && I < Summary.ByReference.size(); ++I)
    if (Summary.ByReference[I])
      if (std::optional<Place> Where = placeOf(stripCopies(ArgExprs[I])))
        write(*Where, *Summary.ByReference[I], nullptr, Call.getExprLoc());
  if (Summary.Synchronizes)
    completeDownloads(Call);
  if (Back) {
    Back->Summary = Summary;
    PlaceModule(Back->Summary.Result);
    return untracked(Call);
  }

  if (!Tracked)
    return ValueFact();
  AbstractValue Result = Summary.Result;
  PlaceModule(Result);
  Facts.recordCallResult(Call, Result.Whole);
  ValueFact Whole = resultOf(Call, Result.Whole.Devices, Result.Whole.Dim);
  Whole.Pending = Result.Whole.Pending; // a download the callee queued and did not wait for
  Result.Whole = Whole;
  return yield(Call, std::move(Result));
}

} // namespace placelint::analysis
