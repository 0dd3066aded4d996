// Modules: `Module::to(device)` moves the module in place; calling a module
// (`model(x)`, `model->forward(x, std::make_tuple(h, c))`) is an operation
// between its parameters and its inputs. Library modules without
// parameters (activations, dropout, losses) have no device of their own,
// unless a loss holds a weight tensor. A container (`Sequential`,
// `ModuleList`, `ModuleDict`) shares the modules put into it: it is where
// they are, and moving one moves the other; a handle (`ptr()`, `get()`,
// `at<NetImpl>(0)`, a copy of a holder) is the module it holds.
#include "flow/DeviceFlow.h"

#include "Syntax.h"

#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// The module's own type: without a pointer (`model->forward` is called on
// an `Impl *`) and before a conversion to a base (`Module::to`).
QualType moduleType(const Expr &ModuleExpr) {
  QualType Type = ModuleExpr.IgnoreParenImpCasts()->getType();
  return Type->isPointerType() ? Type->getPointeeType() : Type;
}

// The tensors an argument passes: itself, or the elements of a tuple or
// pair built in place (`std::make_tuple(h, c)`, `{h, c}`); a tuple made
// elsewhere (`state`, `init_hidden(n)`) stands for its elements.
void collectTensors(const Expr *Arg, const ApiModel &Model,
                    llvm::SmallVectorImpl<const Expr *> &Tensors) {
  Arg = Arg->IgnoreImplicit()->IgnoreParens();
  llvm::ArrayRef<const Expr *> Elements;
  const auto *Call = dyn_cast<CallExpr>(Arg);
  ValueKind Kind = Model.classify(Arg->getType());
  const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
  if (Call && Model.classifyCall(*Call).Kind == CallKind::TupleMake)
    Elements = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
  // optional<tuple>(make_tuple(h, c)), tuple<Tensor, Tensor>{h, c}
  else if (Construct && Construct->getNumArgs() > 0 &&
           !Construct->getConstructor()->isCopyOrMoveConstructor() &&
           (ApiModel::isTuple(Arg->getType()) || ApiModel::isOptional(Arg->getType())))
    Elements = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  else if (Kind == ValueKind::Tensor || Kind == ValueKind::TensorList ||
           (!Construct && ApiModel::isTuple(Arg->getType())))
    return Tensors.push_back(Arg);
  else if (Construct)
    Elements = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  else if (const auto *List = dyn_cast<InitListExpr>(Arg))
    Elements = llvm::ArrayRef(List->getInits(), List->getNumInits());
  for (const Expr *Element : Elements)
    collectTensors(Element, Model, Tensors);
}

// Whether Method (of a module) calls `to` on its own object.
bool movesItself(const CXXMethodDecl &Method, const ApiModel &Model) {
  const FunctionDecl *Definition = Method.getDefinition();
  return Definition &&
         findInTree(Definition->getBody(), [&](const Stmt &S) { return isMoveOfThis(S, Model); });
}

// Whether a constructor moves its module (`to(device)`) or a submodule of
// it (`fc->to(device)`).
bool placesItsState(const CXXConstructorDecl &Ctor, const ApiModel &Model) {
  const FunctionDecl *Definition = Ctor.getDefinition();
  return Definition && findInTree(Definition->getBody(), [&](const Stmt &S) {
           const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
           if (!Call || Model.classifyCall(*Call).Kind != CallKind::ModuleTo)
             return false;
           const Expr *Module = moduleOperand(Call->getImplicitObjectArgument());
           const auto *Field = dyn_cast_or_null<MemberExpr>(Module);
           return isa_and_nonnull<CXXThisExpr>(Module) ||
                  (Field && isa<CXXThisExpr>(Field->getBase()->IgnoreParenImpCasts()));
         });
}

// The forward of a user's module type, when the unit defines it.
const CXXMethodDecl *userForward(QualType Type, const ApiModel &Model) {
  const CXXRecordDecl *User = Model.userModule(Type);
  if (!User || !User->hasDefinition())
    return nullptr;
  for (const CXXMethodDecl *Method : User->getDefinition()->methods())
    if (Model.classifyMethod(*Method).Kind == CallKind::ModuleForward && Method->hasBody())
      return Method;
  return nullptr;
}

// Whether a forward moves one of its tensor parameters (`x.to(device_)`).
bool movesItsInputs(const CXXMethodDecl &Forward, const ApiModel &Model) {
  const FunctionDecl *Definition = Forward.getDefinition();
  return Definition && findInTree(Definition->getBody(), [&](const Stmt &S) {
           const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
           if (!Call || Model.classifyCall(*Call).Kind != CallKind::Transfer)
             return false;
           const auto *Ref = dyn_cast<DeclRefExpr>(
               stripCopies(Call->getImplicitObjectArgument())->IgnoreParenImpCasts());
           return Ref && isa<ParmVarDecl>(Ref->getDecl());
         });
}

// The tensor a loss's options hold: `w` in
// `CrossEntropyLoss(CrossEntropyLossOptions().weight(w))`.
const Expr *optionsTensor(const Expr *E, const ApiModel &Model) {
  const auto *Setter = cast_or_null<CXXMemberCallExpr>(findInTree(E, [&](const Stmt &S) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
    return Call && Model.classifyCall(*Call).Kind == CallKind::ModuleOptionWeight;
  }));
  return Setter ? Setter->getArg(0) : nullptr;
}

// Whether a library module holds other modules: it has a method that puts
// one in (`push_back`, `insert`).
bool isContainer(QualType Type, const ApiModel &Model) {
  const CXXRecordDecl *Library = Model.libraryModule(Type);
  if (!Library || !Library->hasDefinition())
    return false;
  for (const Decl *Member : Library->getDefinition()->decls()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Member);
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member))
      Method = dyn_cast<CXXMethodDecl>(Template->getTemplatedDecl());
    if (Method && Model.classifyMethod(*Method).Kind == CallKind::ModuleInsert)
      return true;
  }
  return false;
}

// The modules an argument passes: itself, or those inside what it builds
// in place (a pair of a name and a module, a list of pairs); a shared_ptr
// converted to its base's is the module it was made from. What a call
// computes from a module is not that module.
void collectModules(const Expr *Arg, const ApiModel &Model,
                    llvm::SmallVectorImpl<const Expr *> &Modules) {
  Arg = Arg->IgnoreImplicit()->IgnoreParens();
  if (Model.classify(Arg->getType()) != ValueKind::Module) {
    const auto *Call = dyn_cast<CallExpr>(Arg);
    if (isa<InitListExpr, CXXConstructExpr, CXXStdInitializerListExpr, CastExpr>(Arg) ||
        (Call && Model.classifyCall(*Call).Kind == CallKind::TupleMake))
      for (const Stmt *Child : Arg->children())
        if (const auto *Part = dyn_cast_or_null<Expr>(Child))
          collectModules(Part, Model, Modules);
    return;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
      Construct && Construct->getNumArgs() == 1 &&
      Model.classify(Construct->getArg(0)->getType()) == ValueKind::Module)
    return collectModules(Construct->getArg(0), Model, Modules);
  Modules.push_back(Arg);
}

// The expression whose module a handle or a copy of one is: `model` in
// `model.ptr()`, `*model`, `std::shared_ptr<Module>(p)`.
const Expr *handleSource(const Expr *E, const ApiModel &Model) {
  while (true) {
    E = moduleOperand(stripCopies(E));
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (Call && Call->getNumArgs() == 0 &&
        Model.classifyCall(*Call).Kind == CallKind::ModuleHandle)
      E = Call->getImplicitObjectArgument();
    else if (Construct && Construct->getNumArgs() == 1 &&
             Model.classify(Construct->getType()) == ValueKind::Module &&
             Model.classify(Construct->getArg(0)->getType()) == ValueKind::Module)
      E = Construct->getArg(0);
    else
      return E;
  }
}

// Whether a variable of Type refers to a module rather than holding one of
// its own: a reference, a pointer, a holder, a shared_ptr.
bool refersToModule(QualType Type, const ApiModel &Model) {
  const CXXRecordDecl *Impl = Model.userModule(Type);
  if (!Impl)
    Impl = Model.libraryModule(Type);
  return Impl && (Type->isReferenceType() || Type->isPointerType() ||
                  Type.getNonReferenceType()->getAsCXXRecordDecl() != Impl);
}

} // namespace

ValueFact DeviceFlow::heldModules(llvm::ArrayRef<const Expr *> Args) {
  llvm::SmallVector<const Expr *, 4> Modules;
  for (const Expr *Arg : Args)
    collectModules(Arg, Model, Modules);
  if (Modules.empty())
    return Args.empty() ? ValueFact() : ValueFact::unknown();
  ValueFact Held;
  for (const Expr *Module : Modules) {
    ValueFact Fact = factOf(Module);
    // A module with nothing to place (an activation) adds no device.
    QualType Type = moduleType(*Module);
    const CXXRecordDecl *User = Model.userModule(Type);
    bool Stateless = User ? !Summaries.registersState(*User) : Model.isStatelessModule(Type);
    if (Stateless && !Fact.Devices.isKnown())
      continue;
    Held = Held.join(Fact);
  }
  return Held;
}

llvm::ArrayRef<AccessPath> DeviceFlow::moduleSharers(const AccessPath &Path) {
  if (!ModuleSharing) {
    ModuleSharing.emplace();
    auto Share = [&](std::optional<Place> A, std::optional<Place> B) {
      if (!A || !B || A->Path == B->Path)
        return;
      (*ModuleSharing)[A->Path].push_back(B->Path);
      (*ModuleSharing)[B->Path].push_back(A->Path);
    };
    auto ShareHeld = [&](std::optional<Place> Container, llvm::ArrayRef<const Expr *> Args) {
      llvm::SmallVector<const Expr *, 4> Modules;
      for (const Expr *Arg : Args)
        collectModules(Arg, Model, Modules);
      for (const Expr *Module : Modules)
        Share(Container, placeOf(handleSource(Module, Model)));
    };
    findInTree(Function.getBody(), [&](const Stmt &S) {
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(&S)) {
        CallKind Kind = Model.classifyCall(*Call).Kind;
        const Expr *Object = Call->getImplicitObjectArgument();
        if (Object && (Kind == CallKind::ModuleInsert ||
                       (Kind == CallKind::RegisterModule && isContainer(moduleType(*Object), Model))))
          ShareHeld(placeOf(moduleOperand(Object)),
                    llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
      } else if (const auto *Declaration = dyn_cast<DeclStmt>(&S)) {
        for (const Decl *D : Declaration->decls()) {
          const auto *Var = dyn_cast<VarDecl>(D);
          if (!Var || !Var->getInit() || !refersToModule(Var->getType(), Model))
            continue;
          Share(Place{AccessPath(Var)}, placeOf(handleSource(Var->getInit(), Model)));
          // `Sequential seq(model, ReLU())`: made with the modules it holds.
          const auto *Construct = dyn_cast<CXXConstructExpr>(Var->getInit()->IgnoreImplicit());
          if (Construct && isContainer(Var->getType(), Model))
            ShareHeld(Place{AccessPath(Var)},
                      llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()));
        }
      }
      return false;
    });
  }
  auto It = ModuleSharing->find(Path);
  return It == ModuleSharing->end() ? llvm::ArrayRef<AccessPath>() : llvm::ArrayRef(It->second);
}

ValueFact DeviceFlow::newModule(const Expr &Creation, SourceLocation At,
                                llvm::ArrayRef<const Expr *> Args) {
  // A device given to a module's constructor is there to be used.
  for (const Expr *Arg : Args) {
    ValueKind Kind = Model.classify(Arg->getType());
    if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType ||
        Kind == ValueKind::TensorOptions)
      noteCudaUse(*Arg, factOf(Arg));
  }
  ValueFact Module;
  QualType Type = moduleType(Creation);
  // A container holds what it is made from (nothing yet, when made empty).
  if (isContainer(Type, Model))
    return heldModules(Args);
  const CXXRecordDecl *User = Model.userModule(Type);
  if (User && !Summaries.registersState(*User))
    return ValueFact::unknown(); // nothing to be on a device
  // A module whose constructor moves it, or its submodules (a model split
  // over two GPUs), is where that put them.
  if (User && llvm::any_of(User->ctors(), [&](const CXXConstructorDecl *Ctor) {
        return placesItsState(*Ctor, Model);
      }))
    return ValueFact::unknown();
  if (!Model.isStatelessModule(Type)) {
    Module = ValueFact::on(DeviceSet::of(AbstractDevice::cpu()), ZeroDim::No);
  } else {
    const Expr *Weight = nullptr;
    for (const Expr *Arg : Args)
      if (!Weight)
        Weight = optionsTensor(Arg, Model);
    if (!Weight)
      return ValueFact::unknown();
    Module = ValueFact::on(factOf(Weight).Devices, ZeroDim::No);
  }
  Module.From = {OriginKind::Created, At};
  return Module;
}

ValueFact DeviceFlow::evaluateModuleMethod(const CXXMemberCallExpr &Call, ApiCall Api) {
  const Expr *Object = Call.getImplicitObjectArgument();
  llvm::SmallVector<const Expr *, 4> Args(Call.arguments());
  if (Api.Kind == CallKind::ModuleForward)
    return applyModule(Call, *Object, Args);
  // A handle is the module it holds; an element of a container, one of
  // the modules it holds.
  if (Api.Kind == CallKind::ModuleHandle)
    return yield(Call, valueOf(Object));
  if (Api.Kind == CallKind::ModuleInsert ||
      (Api.Kind == CallKind::RegisterModule && isContainer(moduleType(*Object), Model))) {
    ValueFact Held = heldModules(Args);
    if (std::optional<Place> Container = placeOf(moduleOperand(Object)))
      write(*Container, read(Container->Path).join(Held), nullptr, Call.getExprLoc());
    return Model.classify(Call.getType()) == ValueKind::Module ? Held : ValueFact();
  }
  if (Api.Kind == CallKind::ModuleParameters) {
    ValueFact Params = factOf(Object);
    Params.Dim = ZeroDim::No;
    return Params;
  }
  if (Api.Kind != CallKind::ModuleTo || Args.empty()) {
    // Another method of a user's module (`decoder->step(token, state)`):
    // through its summary, its fields and its registered state on the
    // module's device.
    const CXXRecordDecl *User = Model.userModule(moduleType(*Object));
    const CXXMethodDecl *Method = Call.getMethodDecl();
    if (!User || !Method || Api.isModelled())
      return untracked(Call);
    ValueFact Module = factOf(Object);
    ValueFact Result = summaryCall(Call, *Method, Object);
    // A method that moves the module itself (`Initialize(device)` calling
    // `to(device)`): where it is now is not known.
    if (movesItself(*Method, Model))
      if (std::optional<Place> Where = placeOf(moduleOperand(Object)))
        write({Where->Path}, ValueFact::unknown(), nullptr, Call.getExprLoc());
    // When the summary cannot tell, a tensor it returns was computed with
    // the module's parameters: on their device.
    ValueKind Kind = Model.classify(Call.getType());
    if ((Kind == ValueKind::Tensor || Kind == ValueKind::TensorList) &&
        !Result.Devices.isKnown() && Module.Devices.isKnown())
      return resultOf(Call, Module.Devices, ZeroDim::Unknown);
    return Result;
  }
  // Module::to(device[, dtype]) moves the parameters in place.
  ValueKind ArgKind = Model.classify(Args[0]->getType());
  if (ArgKind != ValueKind::Device && ArgKind != ValueKind::DeviceType &&
      !stringLiteralIn(Args[0]))
    return ValueFact();
  std::optional<Place> Module = placeOf(moduleOperand(Object));
  // A module with nothing to move stays without a device.
  if (!Module || (Model.isStatelessModule(moduleType(*Object)) &&
                  !factOf(Object).Devices.isKnown()))
    return ValueFact();
  ValueFact Moved = deviceFromArguments(Args[0]);
  noteCudaUse(Call, Moved);
  Moved.setOrigin({OriginKind::Moved, Call.getExprLoc()});
  // In place: the module and all it holds (its parameters, its members
  // that Module::to moves; plain members it does not are the class's own
  // business, which the module's summary keeps).
  write(*Module, Moved, nullptr, Call.getExprLoc());
  // The containers and handles that share it move with it.
  llvm::SmallVector<AccessPath, 4> Sharers{Module->Path};
  for (unsigned I = 0; I < Sharers.size(); ++I)
    for (const AccessPath &Sharer : moduleSharers(Sharers[I]))
      if (!llvm::is_contained(Sharers, Sharer)) {
        Sharers.push_back(Sharer);
        write({Sharer}, Moved, nullptr, Call.getExprLoc());
      }
  return ValueFact();
}

ValueFact DeviceFlow::applyModule(const Expr &Call, const Expr &ModuleExpr,
                                  llvm::ArrayRef<const Expr *> Args) {
  QualType Type = moduleType(ModuleExpr);
  ValueFact Module = factOf(&ModuleExpr);
  llvm::SmallVector<const Expr *, 4> Inputs;
  for (const Expr *Arg : Args)
    collectTensors(Arg, Model, Inputs);
  bool IsLoss = Model.isLossModule(Type);
  ZeroDim ResultDim = IsLoss ? ZeroDim::Yes
                      : Model.libraryModule(Type) && !Model.isStatelessModule(Type)
                          ? ZeroDim::No
                          : ZeroDim::Unknown;
  if (Inputs.empty())
    return resultOf(Call, Module.Devices, ResultDim);
  // A user's module whose forward moves its inputs itself (a model split
  // over two GPUs, one that takes inputs from anywhere): what it does with
  // them is its forward's, through its summary.
  if (const CXXMethodDecl *Forward = userForward(Type, Model);
      Forward && movesItsInputs(*Forward, Model) && isa<CallExpr>(Call))
    return summaryCall(cast<CallExpr>(Call), *Forward, &ModuleExpr);
  // The first input is the batch the module's weights multiply: never a
  // promoted scalar. The module operand is named by its variable (`model`,
  // not `model->`); its parameters are never 0-dim.
  llvm::SmallVector<Operand, 3> Operands;
  // A loss compares its inputs element by element: none of them is a scalar.
  for (const Expr *Input : Inputs) {
    bool Promotable = !Operands.empty() && !IsLoss;
    if (!ApiModel::isTuple(Input->getType())) {
      Operands.push_back(operand(Input, Promotable));
      continue;
    }
    for (const auto &[Element, Fact] : valueOf(Input).Parts)
      if (Element.depth() == 1)
        Operands.push_back({Input, Fact, Promotable});
  }
  if (Operands.empty())
    return resultOf(Call, Module.Devices, ResultDim);
  ValueFact InputFact = Operands.front().Fact;
  Operand ModuleOperand{moduleOperand(&ModuleExpr), Module, /*Promotable=*/false};
  ModuleOperand.Fact.Dim = ZeroDim::No;
  Operands.insert(Operands.begin() + 1, std::move(ModuleOperand));
  bool Mismatch = findConflict(Operands).has_value();
  // An input made by an operation that threw: had it run, the output would
  // be where the module's weights are.
  bool InputAfterMismatch =
      llvm::any_of(Operands, [](const Operand &O) { return O.Fact.AfterMismatch; });
  operation(Call, ApiModel::moduleForwardName(), ResultRank::Unknown, std::move(Operands));
  // It threw there: nothing computed from its result is reported again.
  // Inside a module's own method, after an input that threw, the output's
  // device is "the device of" the module, the one the earlier call failed
  // on: on the paths where it did not fail, that device is the host, so a
  // second module made in `forward` is not reported again (one report per
  // method for one misplaced input).
  bool OnOwnDevice = llvm::any_of(Module.Devices.devices(), [](const AbstractDevice &D) {
    return D.isModuleDevice();
  });
  if (Mismatch || (InputAfterMismatch && OnOwnDevice)) {
    ValueFact Failed = resultOf(Call, DeviceSet::unknown(), ResultDim);
    Failed.AfterMismatch = true;
    return Failed;
  }
  bool OnInput = InputFact.Devices.isKnown() && !InputAfterMismatch;
  return resultOf(Call, OnInput ? InputFact.Devices : Module.Devices, ResultDim);
}

} // namespace placelint::analysis
