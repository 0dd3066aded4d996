#include "placelint/analysis/ApiModel.h"

#include "OpCatalogue.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace placelint::analysis {

using namespace clang;

namespace {

ApiCall call(CallKind Kind, ResultRank Rank = ResultRank::Broadcast) { return {Kind, Rank}; }

// Adds Names, all of one kind, to Table.
void add(ApiNames &Table, std::initializer_list<llvm::StringRef> Names, ApiCall Call) {
  for (llvm::StringRef Name : Names)
    Table[Name] = Call;
}

// Call, writing into the tensor it is called on (`pow_`).
ApiCall inPlace(ApiCall Call) {
  Call.InPlace = true;
  return Call;
}

// Call, with no 0-dim cpu tensor admitted beside the others (ops.def's
// SameDeviceStrict: `concat` is `cat`).
ApiCall strict(ApiCall Call) {
  Call.AdmitsCpuScalar = false;
  return Call;
}

// Appends Names, all of one model, to Lines.
void add(std::vector<ApiLine> &Lines, ApiNames ProfileTable::*Table,
         std::initializer_list<llvm::StringRef> Names, ApiCall Call) {
  for (llvm::StringRef Name : Names)
    Lines.push_back({Table, Name, Call});
}

// libtorch's ops that pl does not have (so neither has the catalogue).
std::vector<ApiLine> makeLibtorchOnlyLines() {
  std::vector<ApiLine> Lines;
  const auto Free = &ProfileTable::FreeFunctions;
  add(Lines, Free,
      {"randint", "linspace", "logspace", "eye", "randperm", "empty_strided", "tril_indices",
       "triu_indices"},
      call(CallKind::Factory, ResultRank::NotZeroDim));
  add(Lines, Free, {"bernoulli", "multinomial", "normal", "poisson", "binomial"},
      call(CallKind::Sample, ResultRank::Unknown));
  add(Lines, Free,
      {"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like"},
      call(CallKind::FactoryLike, ResultRank::SameAsInput));
  add(Lines, Free, {"bmm", "mv", "addmm", "maximum", "minimum", "where", "atan2"},
      call(CallKind::SameDeviceOp));
  add(Lines, Free, {"dot"}, call(CallKind::SameDeviceOp, ResultRank::ZeroDim));
  add(Lines, Free, {"concat", "hstack", "vstack"},
      strict(call(CallKind::ListOp, ResultRank::NotZeroDim)));
  add(Lines, Free,
      {"triu", "tril", "sigmoid", "tanh", "abs", "softmax", "log_softmax", "clamp", "permute",
       "contiguous"},
      call(CallKind::ShapePreserving, ResultRank::SameAsInput));
  add(Lines, Free, {"load"}, call(CallKind::SerializedLoad));
  add(Lines, Free, {"split", "chunk", "unbind", "tensor_split", "split_with_sizes"},
      call(CallKind::Split, ResultRank::NotZeroDim));

  const auto Tensor = &ProfileTable::TensorMethods;
  add(Lines, Tensor,
      {"bmm", "mv", "maximum", "minimum", "pow", "eq", "ne", "lt", "le", "gt", "ge"},
      call(CallKind::SameDeviceOp));
  add(Lines, Tensor, {"pow_"}, inPlace(call(CallKind::SameDeviceOp)));
  add(Lines, Tensor, {"dot"}, call(CallKind::SameDeviceOp, ResultRank::ZeroDim));
  // Indices may stay on the cpu for any tensor (PyTorch moves them).
  add(Lines, Tensor, {"index", "index_put"}, call(CallKind::Indexing, ResultRank::Unknown));
  add(Lines, Tensor, {"index_put_"}, inPlace(call(CallKind::Indexing, ResultRank::Unknown)));
  add(Lines, Tensor,
      {"min", "prod", "norm", "argmin", "std", "var", "median", "all", "any", "amax", "amin",
       "nansum", "nanmean", "count_nonzero"},
      call(CallKind::FullReduction, ResultRank::ZeroDim));
  add(Lines, Tensor,
      {"abs", "sigmoid", "tanh", "float", "double", "half", "long", "int", "bool", "round",
       "floor", "ceil", "clamp", "clamp_min", "clamp_max", "sign", "square", "permute", "softmax",
       "log_softmax", "slice", "flip", "roll", "tile"},
      call(CallKind::ShapePreserving, ResultRank::SameAsInput));
  add(Lines, Tensor,
      {"abs_", "clamp_", "uniform_", "normal_", "detach_", "sigmoid_", "tanh_"},
      inPlace(call(CallKind::ShapePreserving, ResultRank::SameAsInput)));
  add(Lines, Tensor, {"expand", "repeat"}, call(CallKind::Reshape, ResultRank::NotZeroDim));
  add(Lines, Tensor, {"view_as", "expand_as", "reshape_as", "type_as"},
      call(CallKind::ShapeOf, ResultRank::Unknown));
  add(Lines, Tensor, {"split", "chunk", "unbind", "tensor_split", "split_with_sizes"},
      call(CallKind::Split, ResultRank::NotZeroDim));
  return Lines;
}

// The names both APIs share that are no ops: options, modules, optimizers,
// a tensor's metadata.
void addSharedNames(ProfileTable &Table) {
  ApiNames &Free = Table.FreeFunctions;
  add(Free, {"device"}, call(CallKind::OptionsDevice));
  add(Free, {"dtype", "layout"}, call(CallKind::OptionsBuilder));
  add(Free, {"requires_grad"}, call(CallKind::OptionsRequiresGrad));
  Table.LossSuffixes = {"_loss", "cross_entropy"};

  add(Table.TensorMethods,
      {"sizes", "size", "dim", "ndimension", "numel", "dtype", "scalar_type", "strides",
       "stride", "is_contiguous", "is_pinned", "is_cuda", "is_cpu", "defined", "requires_grad",
       "element_size", "nbytes", "itemsize", "layout", "get_device", "is_leaf",
       "retains_grad", "print", "is_floating_point", "is_same", "is_sim", "impl",
       "output_nr", "storage_offset"},
      call(CallKind::Metadata, ResultRank::Unknown));
  add(Table.TensorMethods, {"data_ptr", "const_data_ptr", "mutable_data_ptr", "accessor"},
      call(CallKind::DataAccess, ResultRank::Unknown));

  ApiNames &Options = Table.OptionsMethods;
  add(Options, {"device"}, call(CallKind::OptionsDevice));
  add(Options, {"dtype", "layout", "memory_format"}, call(CallKind::OptionsBuilder));
  add(Options, {"requires_grad"}, call(CallKind::OptionsRequiresGrad));
  add(Options, {"pinned_memory"}, call(CallKind::OptionsPinnedMemory));

  ApiNames &Module = Table.ModuleMethods;
  add(Module, {"forward"}, call(CallKind::ModuleForward));
  add(Module, {"parameters", "buffers"}, call(CallKind::ModuleParameters, ResultRank::NotZeroDim));
  add(Module, {"to"}, call(CallKind::ModuleTo));
  add(Module, {"register_parameter"}, call(CallKind::RegisterParameter));
  add(Module, {"register_buffer"}, call(CallKind::RegisterBuffer));
  add(Module, {"register_module"}, call(CallKind::RegisterModule));

  add(Table.OptimizerMethods, {"step"}, call(CallKind::OptimizerStep));

  add(Free, {"synchronize", "device_synchronize"}, call(CallKind::Synchronize));
  add(Table.StreamMethods, {"synchronize"}, call(CallKind::Synchronize));
}

ProfileTable makePlProfile(ProfileTable Table) {
  Table.CudaSynchronize = "pl::cuda::synchronize()";
  addCatalogueOps(Table);
  addSharedNames(Table);
  return Table;
}

ProfileTable makeLibtorchProfile(ProfileTable Table) {
  Table.CudaSynchronize = "torch::cuda::synchronize()";
  addCatalogueOps(Table);
  for (const ApiLine &Line : libtorchOnlyLines())
    (Table.*Line.Table)[Line.Name] = Line.Call;
  for (const ApiLine &Line : libtorchOverrides())
    (Table.*Line.Table)[Line.Name] = Line.Call;
  addSharedNames(Table);
  return Table;
}

// std's facilities that hold or pass on tensors, for every profile.
const ApiNames &stdFunctions() {
  static const ApiNames Names = [] {
    ApiNames Table;
    add(Table, {"move", "forward"}, call(CallKind::StdMove));
    add(Table, {"make_tuple", "make_pair", "forward_as_tuple"}, call(CallKind::TupleMake));
    add(Table, {"get"}, call(CallKind::TupleGet));
    add(Table, {"make_shared", "make_unique"}, call(CallKind::MakeShared));
    return Table;
  }();
  return Names;
}

const ApiNames &listMethods() {
  static const ApiNames Names = [] {
    ApiNames Table;
    add(Table, {"push_back", "emplace_back"}, call(CallKind::ListInsert));
    add(Table, {"at", "front", "back"}, call(CallKind::ListRead));
    add(Table, {"clear"}, call(CallKind::ListClear));
    return Table;
  }();
  return Names;
}

} // namespace

llvm::ArrayRef<ApiLine> libtorchOnlyLines() {
  static const std::vector<ApiLine> Lines = makeLibtorchOnlyLines();
  return Lines;
}

llvm::ArrayRef<ApiLine> libtorchOverrides() {
  // None: every catalogue name means in libtorch what it means in pl. A
  // libtorch model that differs goes here, never into libtorchOnlyLines().
  return {};
}

const ProfileTable &profileTable(ApiProfile Profile) {
  static const ProfileTable Pl = makePlProfile({"pl",
                                              {"pl::Tensor"},
                                              {"pl::Device"},
                                              {"pl::DeviceType"},
                                              {"pl::TensorOptions"},
                                              {"pl::nn::Module", "pl::nn::ModuleHolder"},
                                              {},
                                              {"pl"}});
  // torch::Tensor is at::Tensor (derived from at::TensorBase); torch::Device,
  // torch::kCUDA and torch::TensorOptions are c10's.
  static const ProfileTable Libtorch = makeLibtorchProfile(
      {"libtorch",
       {"at::Tensor", "at::TensorBase"},
       {"c10::Device"},
       {"c10::DeviceType"},
       {"c10::TensorOptions"},
       {"torch::nn::Module", "torch::nn::ModuleHolder", "torch::jit::Module"},
       {"c10::IValue"},
       {"torch", "at", "c10"}});
  return Profile == ApiProfile::Libtorch ? Libtorch : Pl;
}

namespace {

// Whether the unit declares the profile's tensor class (e.g. `pl::Tensor`).
bool declaresTensorClass(const ASTContext &Context, const ProfileTable &Table) {
  for (llvm::StringRef Qualified : Table.TensorClasses) {
    auto [Namespace, Name] = Qualified.split("::");
    auto &Idents = const_cast<ASTContext &>(Context).Idents;
    for (const NamedDecl *NS :
         Context.getTranslationUnitDecl()->lookup(&Idents.get(Namespace))) {
      const auto *Space = dyn_cast<NamespaceDecl>(NS);
      if (Space && !Space->lookup(&Idents.get(Name)).empty())
        return true;
    }
  }
  return false;
}

} // namespace

ApiModel::ApiModel(const ASTContext &Context, const AnalysisOptions &Options)
    : UserAvailabilityChecks(Options.AvailabilityChecks) {
  for (llvm::StringRef Entry : Options.GpuTestSuffixes)
    if (auto Parsed = parseGpuTestSuffix(Entry))
      GpuTestSuffixes.push_back(std::move(*Parsed));
  ApiProfile Requested = Options.Profile;
  if (Requested != ApiProfile::Auto) {
    Profiles.push_back(Requested);
    return;
  }
  for (ApiProfile Candidate : {ApiProfile::Pl, ApiProfile::Libtorch})
    if (declaresTensorClass(Context, profileTable(Candidate)))
      Profiles.push_back(Candidate);
  if (Profiles.empty()) // nothing declared: nothing will classify anyway
    Profiles = {ApiProfile::Pl, ApiProfile::Libtorch};
}

ValueKind ApiModel::classifyByName(llvm::StringRef QualifiedName) const {
  for (ApiProfile Profile : Profiles) {
    const ProfileTable &Table = profileTable(Profile);
    auto Listed = [&](const std::vector<llvm::StringRef> &Names) {
      return llvm::is_contained(Names, QualifiedName);
    };
    if (Listed(Table.TensorClasses))
      return ValueKind::Tensor;
    if (Listed(Table.DeviceClasses))
      return ValueKind::Device;
    if (Listed(Table.OptionsClasses))
      return ValueKind::TensorOptions;
    if (Listed(Table.ModuleClasses))
      return ValueKind::Module;
  }
  return ValueKind::Other;
}

namespace {

// std's smart pointers and optional: seen through, as what they hold.
bool isPointerLike(llvm::StringRef Template) {
  return Template == "std::shared_ptr" || Template == "std::unique_ptr" ||
         Template == "std::optional" || Template == "c10::optional";
}

// std's containers, and which template argument is the element: a map's
// elements are its mapped values.
std::optional<unsigned> containerElement(llvm::StringRef Template) {
  if (Template == "std::vector" || Template == "std::deque" || Template == "std::list" ||
      Template == "std::array" || Template == "c10::List")
    return 0;
  if (Template == "std::map" || Template == "std::unordered_map" ||
      Template == "c10::Dict")
    return 1;
  return std::nullopt;
}

} // namespace

ValueKind ApiModel::classifyRecord(const CXXRecordDecl &Record) const {
  ValueKind Kind = classifyByName(Record.getQualifiedNameAsString());
  if (Kind != ValueKind::Other)
    return Kind;
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition || Definition->isLambda())
    return ValueKind::Other;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Definition);
      Spec && Spec->getTemplateArgs().size() >= 1) {
    std::string Template = Spec->getQualifiedNameAsString();
    auto TypeArgument = [&](unsigned Index) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      return Index < Args.size() && Args[Index].getKind() == TemplateArgument::Type
                 ? Args[Index].getAsType()
                 : QualType();
    };
    // std::shared_ptr<Net> is a module; std::optional<Device> a Device.
    if (isPointerLike(Template))
      return classify(TypeArgument(0));
    // A container of tracked values (std::vector<Tensor>, a map of tensors,
    // a vector of batches or of IValues) is one value, its elements'.
    if (std::optional<unsigned> Element = containerElement(Template)) {
      QualType ElementType = TypeArgument(*Element);
      return classify(ElementType) != ValueKind::Other || holdsTensors(ElementType)
                 ? ValueKind::TensorList
                 : ValueKind::Other;
    }
    // A tuple or pair: of tensors (what an LSTM takes and returns) a list
    // of them, of other tracked values an aggregate.
    if (Template == "std::tuple" || Template == "std::pair") {
      ValueKind Found = ValueKind::Other;
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
        llvm::ArrayRef<TemplateArgument> Args =
            Arg.getKind() == TemplateArgument::Pack ? Arg.pack_elements() : llvm::ArrayRef(Arg);
        for (const TemplateArgument &Each : Args) {
          ValueKind Element = Each.getKind() == TemplateArgument::Type
                                  ? classify(Each.getAsType())
                                  : ValueKind::Other;
          if (Element == ValueKind::Tensor || Element == ValueKind::TensorList)
            return ValueKind::TensorList;
          if (Element != ValueKind::Other)
            Found = ValueKind::Aggregate;
        }
      }
      return Found;
    }
  }
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl()) {
      ValueKind BaseKind = classifyRecord(*BaseRecord);
      if (BaseKind == ValueKind::Tensor || BaseKind == ValueKind::Module)
        return BaseKind;
    }
  if (Definition->isInStdNamespace())
    return ValueKind::Other;
  // A struct with tracked fields (a batch, a config holding a Device).
  bool HasTrackedField = false;
  Definition->forallBases([&](const CXXRecordDecl *Base) {
    HasTrackedField = HasTrackedField || hasTrackedField(*Base);
    return true;
  });
  return HasTrackedField || hasTrackedField(*Definition) ? ValueKind::Aggregate
                                                          : ValueKind::Other;
}

bool ApiModel::hasTrackedField(const CXXRecordDecl &Record) const {
  return llvm::any_of(Record.fields(), [&](const FieldDecl *Field) {
    return classify(Field->getType()) != ValueKind::Other;
  });
}

ValueKind ApiModel::classify(QualType Type) const {
  if (Type.isNull())
    return ValueKind::Other;
  const clang::Type *Canonical =
      Type.getNonReferenceType().getCanonicalType().getTypePtr();
  auto Cached = TypeCache.find(Canonical);
  if (Cached != TypeCache.end())
    return Cached->second;
  ValueKind Kind = ValueKind::Other;
  if (const auto *Enum = Canonical->getAs<EnumType>()) {
    std::string Name = Enum->getDecl()->getQualifiedNameAsString();
    for (ApiProfile Profile : Profiles)
      if (llvm::is_contained(profileTable(Profile).DeviceTypeEnums, Name))
        Kind = ValueKind::DeviceType;
  } else if (const CXXRecordDecl *Record = Canonical->getAsCXXRecordDecl()) {
    // Other until known: a struct that holds a pointer to its own type.
    TypeCache[Canonical] = ValueKind::Other;
    if (!Canonical->isDependentType())
      Kind = classifyRecord(*Record);
  }
  TypeCache[Canonical] = Kind;
  return Kind;
}

bool ApiModel::holdsTensors(QualType Type) const {
  const CXXRecordDecl *Record = Type.getCanonicalType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  std::string Name = Record->getQualifiedNameAsString();
  for (ApiProfile Profile : Profiles)
    if (llvm::is_contained(profileTable(Profile).TensorHolderClasses, Name))
      return true;
  return false;
}

bool ApiModel::isApiNamespace(llvm::StringRef Name) const {
  for (ApiProfile Profile : Profiles)
    if (llvm::is_contained(profileTable(Profile).ApiNamespaces, Name))
      return true;
  return false;
}

const CXXRecordDecl *ApiModel::libraryModule(QualType Type) const {
  const CXXRecordDecl *Record = moduleClass(Type);
  return Record && isApiRecord(*Record) ? Record : nullptr;
}

const CXXRecordDecl *ApiModel::userModule(QualType Type) const {
  const CXXRecordDecl *Record = moduleClass(Type);
  return Record && !isApiRecord(*Record) ? Record : nullptr;
}

bool ApiModel::isApiRecord(const CXXRecordDecl &Record) const {
  // Library modules live in the API namespaces (torch::nn, pl::nn).
  return isInApiNamespace(Record);
}

const CXXRecordDecl *ApiModel::moduleClass(QualType Type) const {
  if (classify(Type) != ValueKind::Module)
    return nullptr;
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  // A holder (ModuleHolder<Impl>, or a TORCH_MODULE class derived from one)
  // or a shared_ptr<Impl>: the Impl is what holds the parameters.
  for (int Depth = 0; Record && Depth < 4; ++Depth) {
    const CXXRecordDecl *Definition = Record->getDefinition();
    if (!Definition)
      return nullptr;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Definition);
        Spec && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
        (Spec->getName() == "ModuleHolder" || Spec->getName() == "shared_ptr")) {
      Record = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      continue;
    }
    if (Definition->getNumBases() == 1 && Definition->getName() != "Module") {
      const CXXRecordDecl *Base = Definition->bases_begin()->getType()->getAsCXXRecordDecl();
      if (const auto *BaseSpec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Base);
          BaseSpec && BaseSpec->getName() == "ModuleHolder") {
        Record = Base;
        continue;
      }
    }
    break;
  }
  return Record;
}

namespace {

// `ReLU` for `ReLUImpl`, which libtorch's holders wrap.
llvm::StringRef moduleName(const CXXRecordDecl &Record) {
  llvm::StringRef Name = Record.getName();
  Name.consume_back("Impl");
  return Name;
}

} // namespace

std::optional<AvailabilityKind>
ApiModel::availabilityCheck(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Function.getName();
  // torch::cuda::, at::cuda:: and c10::cuda:: spell them alike; so does pl.
  if (Name == "is_available")
    return AvailabilityKind::Flag;
  if (Name == "device_count" || Name == "getNumGPUs")
    return AvailabilityKind::Count;
  if (UserAvailabilityChecks.empty())
    return std::nullopt;
  std::string Qualified = Function.getQualifiedNameAsString();
  for (llvm::StringRef Listed : UserAvailabilityChecks) {
    Listed.consume_front("::");
    if (Listed == Qualified || Listed == Name) {
      QualType Result = Function.getReturnType();
      return Result->isBooleanType() || !Result->isIntegerType() ? AvailabilityKind::Flag
                                                                 : AvailabilityKind::Count;
    }
  }
  return std::nullopt;
}

std::optional<DeviceKind> ApiModel::deviceKindOfConstant(const Expr &E,
                                                         const ASTContext &Context) {
  const auto *Enum = E.getType()->getAs<EnumType>();
  Expr::EvalResult Result;
  if (!Enum || E.isValueDependent() || !E.EvaluateAsInt(Result, Context))
    return std::nullopt;
  for (const EnumConstantDecl *Enumerator : Enum->getDecl()->enumerators())
    if (llvm::APSInt::compareValues(Enumerator->getInitVal(), Result.Val.getInt()) == 0)
      return deviceKindOfEnumerator(Enumerator->getName());
  return std::nullopt;
}

unsigned ApiModel::devicesEnsuredByTestName(const FunctionDecl &Function) const {
  // TEST(Suite, Name) defines `Suite_Name_Test::TestBody()`.
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  if (GpuTestSuffixes.empty() || !Method || !Method->getIdentifier() ||
      Method->getName() != "TestBody" || !Method->getParent()->getIdentifier())
    return 0;
  llvm::StringRef Test = Method->getParent()->getName();
  if (!Test.consume_back("_Test"))
    return 0;
  unsigned Devices = 0;
  for (const auto &[Suffix, Count] : GpuTestSuffixes)
    if (Test.ends_with(Suffix))
      Devices = std::max(Devices, Count);
  return Devices;
}

bool ApiModel::isLossModule(QualType Type) const {
  const CXXRecordDecl *Record = libraryModule(Type);
  return Record && moduleName(*Record).ends_with("Loss");
}

bool ApiModel::isStatelessModule(QualType Type) const {
  const CXXRecordDecl *Record = libraryModule(Type);
  if (!Record)
    return false;
  llvm::StringRef Name = moduleName(*Record);
  if (Name.ends_with("Loss") || Name.contains("Pool") || Name.contains("Dropout") ||
      Name.contains("Pad") || Name.ends_with("LU") || Name.ends_with("Shuffle"))
    return Name != "PReLU";
  return llvm::StringSwitch<bool>(Name)
      .Cases("Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Softmin", true)
      .Case("ReLU6", true)
      .Cases("Softplus", "Softsign", "Hardtanh", "Hardsigmoid", "Hardswish", true)
      .Cases("Mish", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold", true)
      .Cases("Flatten", "Unflatten", "Identity", "Upsample", "Fold", true)
      .Cases("Unfold", "CosineSimilarity", "PairwiseDistance", "LogSigmoid", true)
      .Default(false);
}

bool ApiModel::isOptimizer(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->getDefinition())
    return false;
  auto InOptim = [&](const CXXRecordDecl *R) {
    std::string Name = R->getQualifiedNameAsString();
    for (ApiProfile Profile : Profiles)
      for (llvm::StringRef Namespace : profileTable(Profile).ApiNamespaces)
        if (llvm::StringRef(Name).starts_with((Namespace + "::optim::").str()))
          return true;
    return false;
  };
  if (InOptim(Record))
    return true;
  return !Record->getDefinition()->forallBases(
      [&](const CXXRecordDecl *Base) { return !InOptim(Base); });
}

std::optional<llvm::ArrayRef<const Expr *>>
ApiModel::optimizerArguments(const Expr &E) const {
  const Expr *Made = E.IgnoreImplicit()->IgnoreParens();
  if (const auto *New = dyn_cast<CXXNewExpr>(Made))
    Made = New->getConstructExpr();
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Made);
      Construct && isOptimizer(Construct->getType()))
    return llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  // std::make_unique<SGD>(params, lr): the smart pointer's pointee.
  const auto *Call = dyn_cast_or_null<CallExpr>(Made);
  if (!Call || classifyCall(*Call).Kind != CallKind::OptimizerConstruction)
    return std::nullopt;
  return llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
}

bool ApiModel::isTuple(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->isInStdNamespace() &&
         (Record->getName() == "tuple" || Record->getName() == "pair");
}

bool ApiModel::isOptional(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || Record->getName() != "optional")
    return false;
  // libtorch 1.13 has its own (`c10::optional`, spelled `torch::optional`).
  const auto *Namespace = dyn_cast<NamespaceDecl>(Record->getDeclContext()->getRedeclContext());
  return Record->isInStdNamespace() ||
         (Namespace && Namespace->getName() == "c10" &&
          Namespace->getDeclContext()->getRedeclContext()->isTranslationUnit());
}

bool ApiModel::isDataLoader(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->getName().contains("DataLoader");
}

bool ApiModel::isDataset(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  auto Named = [](const CXXRecordDecl *R) { return R->getName().contains("Dataset"); };
  return Named(Record) ||
         Record->getQualifiedNameAsString().find("::datasets::") != std::string::npos ||
         !Record->getDefinition()->forallBases([&](const CXXRecordDecl *Base) {
           return !Named(Base);
         });
}

ApiCall ApiModel::lookup(ApiNames ProfileTable::*Table, llvm::StringRef Name) const {
  for (ApiProfile Profile : Profiles) {
    const ApiNames &Names = profileTable(Profile).*Table;
    if (auto It = Names.find(Name); It != Names.end())
      return It->second;
  }
  return {};
}

namespace {

// The pointee of `std::make_unique<T>` / `make_shared<T>`'s result.
QualType smartPointee(QualType Type) {
  const auto *Smart =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
  if (!Smart || Smart->getTemplateArgs().size() < 1 ||
      Smart->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  return Smart->getTemplateArgs()[0].getAsType();
}

} // namespace

bool ApiModel::isInApiNamespace(const Decl &D) const {
  // The outermost enclosing namespace decides (torch::nn::functional::relu
  // belongs to torch).
  const DeclContext *Outermost = nullptr;
  for (const DeclContext *Ctx = D.getDeclContext(); Ctx && !Ctx->isTranslationUnit();
       Ctx = Ctx->getParent())
    if (Ctx->isNamespace() && !cast<NamespaceDecl>(Ctx)->isInline())
      Outermost = Ctx;
  return Outermost && isApiNamespace(cast<NamespaceDecl>(Outermost)->getName());
}

ApiCall ApiModel::classifyFunction(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return {};
  llvm::StringRef Name = Function.getName();
  if (Function.isInStdNamespace()) {
    ApiCall Std;
    if (auto It = stdFunctions().find(Name); It != stdFunctions().end())
      Std = It->second;
    if (Std.Kind == CallKind::MakeShared && isOptimizer(smartPointee(Function.getReturnType())))
      Std.Kind = CallKind::OptimizerConstruction;
    return Std;
  }
  if (!isInApiNamespace(Function))
    return {};
  if (ApiCall Listed = lookup(&ProfileTable::FreeFunctions, Name); Listed.isModelled())
    return Listed;
  for (ApiProfile Profile : Profiles)
    for (llvm::StringRef Suffix : profileTable(Profile).LossSuffixes)
      if (Name.ends_with(Suffix))
        return call(CallKind::Loss, ResultRank::ZeroDim);
  return call(CallKind::OtherApi, ResultRank::Unknown);
}

// A loss's options: `CrossEntropyLossOptions().weight(w)`.
bool ApiModel::isLossWeightSetter(const CXXMethodDecl &Method) const {
  return Method.getParent()->getName().ends_with("Options") && Method.getIdentifier() &&
         Method.getName().ends_with("weight") && Method.getNumParams() == 1 &&
         isTensor(Method.getParamDecl(0)->getType());
}

ApiCall ApiModel::classifyMethod(const CXXMethodDecl &Method) const {
  if (!Method.getIdentifier())
    return {};
  llvm::StringRef Name = Method.getName();
  QualType Object(Method.getParent()->getTypeForDecl(), 0);
  switch (classify(Object)) {
  case ValueKind::Tensor: {
    if (ApiCall Listed = lookup(&ProfileTable::TensorMethods, Name); Listed.isModelled())
      return Listed;
    // A method the tables do not list: by the API's naming rule, a trailing
    // underscore writes in place.
    ApiCall Other = call(CallKind::OtherApi, ResultRank::Unknown);
    Other.InPlace = Name.ends_with("_");
    return Other;
  }
  case ValueKind::TensorOptions:
    return lookup(&ProfileTable::OptionsMethods, Name);
  case ValueKind::Module:
    return lookup(&ProfileTable::ModuleMethods, Name);
  case ValueKind::TensorList:
    if (auto It = listMethods().find(Name); It != listMethods().end())
      return It->second;
    return {};
  case ValueKind::Aggregate: {
    // The library's datasets hold their tensors (`MNIST::targets()`),
    // loaded on the host.
    if (isDataset(Object) && isApiRecord(*Method.getParent()))
      return call(CallKind::DatasetLoad, ResultRank::NotZeroDim);
    if (isLossWeightSetter(Method)) // options that hold the weight they set
      return call(CallKind::ModuleOptionWeight);
    // A batch's own `Batch to(Device) const`: a moved copy of its object.
    ApiCall Listed = lookup(&ProfileTable::TensorMethods, Name);
    QualType Result = Method.getReturnType();
    if (Listed.Kind == CallKind::Transfer && !Result->isVoidType() &&
        !Result->isReferenceType() && classify(Result) != ValueKind::Other)
      return Listed;
    return {};
  }
  case ValueKind::Device:
  case ValueKind::DeviceType:
    return {};
  case ValueKind::Other:
    break;
  }
  if (isOptimizer(Object))
    return lookup(&ProfileTable::OptimizerMethods, Name);
  if (isApiRecord(*Method.getParent()))
    if (ApiCall Stream = lookup(&ProfileTable::StreamMethods, Name); Stream.isModelled())
      return Stream;
  // Whatever a dataset's method returns, it loaded on the host.
  if (isDataset(Object))
    return call(CallKind::DatasetLoad, ResultRank::NotZeroDim);
  if (isLossWeightSetter(Method))
    return call(CallKind::ModuleOptionWeight);
  return {};
}

ApiCall ApiModel::classifyCall(const CallExpr &Call) const {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    return Method ? classifyMethod(*Method) : ApiCall();
  }
  if (isa<CXXOperatorCallExpr>(Call))
    return {};
  const FunctionDecl *Callee = Call.getDirectCallee();
  return Callee ? classifyFunction(*Callee) : ApiCall();
}

llvm::StringRef ApiModel::cudaSynchronizeCall() const {
  return Profiles.size() == 1 ? profileTable(Profiles.front()).CudaSynchronize : "";
}

bool ApiModel::isNonBlocking(const CallExpr &Call) const {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return false;
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = 0; I < Callee->getNumParams() && I + Offset < Call.getNumArgs(); ++I) {
    const ParmVarDecl *Param = Callee->getParamDecl(I);
    const Expr *Arg = Call.getArg(I + Offset);
    if (!Param->getIdentifier() || Param->getName() != "non_blocking" ||
        isa<CXXDefaultArgExpr>(Arg))
      continue;
    bool Value = false;
    return !Arg->isValueDependent() && Arg->EvaluateAsBooleanCondition(Value, Callee->getASTContext()) && Value;
  }
  return false;
}

std::optional<DeviceKind> ApiModel::deviceKindOfEnumerator(llvm::StringRef Name) {
  // pl and c10 spell the enumerators CPU/CUDA; the constants are kCPU/kCUDA.
  if (Name.size() > 1 && Name.front() == 'k' && llvm::isUpper(Name[1]))
    Name = Name.drop_front();
  std::string Lower = Name.lower();
  return llvm::StringSwitch<std::optional<DeviceKind>>(Lower)
      .Case("cpu", DeviceKind::CPU)
      .Case("cuda", DeviceKind::CUDA)
      .Case("sim", DeviceKind::Sim)
      .Default(std::nullopt);
}

} // namespace placelint::analysis
