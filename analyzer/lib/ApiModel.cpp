#include "placelint/analysis/ApiModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace placelint::analysis {

using namespace clang;

std::optional<ApiProfile> parseApiProfile(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ApiProfile>>(Name)
      .Case("auto", ApiProfile::Auto)
      .Case("pl", ApiProfile::Pl)
      .Case("libtorch", ApiProfile::Libtorch)
      .Default(std::nullopt);
}

llvm::StringRef apiProfileName(ApiProfile Profile) {
  switch (Profile) {
  case ApiProfile::Auto:
    return "auto";
  case ApiProfile::Pl:
    return "pl";
  case ApiProfile::Libtorch:
    return "libtorch";
  }
  return "auto";
}

const ProfileTable &profileTable(ApiProfile Profile) {
  // pl mirrors the libtorch C++ API under one namespace.
  static const ProfileTable Pl{
      "pl",
      {"pl::Tensor"},
      {"pl::Device"},
      {"pl::DeviceType"},
      {"pl::TensorOptions"},
      {"pl::nn::Module", "pl::nn::ModuleHolder"},
      {},
      {"pl"}};
  // torch::Tensor is at::Tensor (derived from at::TensorBase); torch::Device,
  // torch::kCUDA and torch::TensorOptions are c10's.
  static const ProfileTable Libtorch{
      "libtorch",
      {"at::Tensor", "at::TensorBase"},
      {"c10::Device"},
      {"c10::DeviceType"},
      {"c10::TensorOptions"},
      {"torch::nn::Module", "torch::nn::ModuleHolder", "torch::jit::Module"},
      {"c10::IValue"},
      {"torch", "at", "c10"}};
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

ValueKind ApiModel::classifyRecord(const CXXRecordDecl &Record) const {
  ValueKind Kind = classifyByName(Record.getQualifiedNameAsString());
  if (Kind != ValueKind::Other)
    return Kind;
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition)
    return ValueKind::Other;
  // std::shared_ptr<Net> where Net is a module; std::vector<Tensor>.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Definition);
      Spec && Spec->getTemplateArgs().size() >= 1) {
    std::string Template = Spec->getQualifiedNameAsString();
    if (Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      QualType Element = Spec->getTemplateArgs()[0].getAsType();
      if (Template == "std::shared_ptr" && classify(Element) == ValueKind::Module)
        return ValueKind::Module;
      if (Template == "std::vector" && (classify(Element) == ValueKind::Tensor ||
                                        holdsTensors(Element)))
        return ValueKind::TensorList;
    }
    // A tuple or pair of tensors (what an LSTM takes and returns).
    if (Template == "std::tuple" || Template == "std::pair")
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
        llvm::ArrayRef<TemplateArgument> Args =
            Arg.getKind() == TemplateArgument::Pack ? Arg.pack_elements() : llvm::ArrayRef(Arg);
        for (const TemplateArgument &Each : Args)
          if (Each.getKind() == TemplateArgument::Type &&
              (classify(Each.getAsType()) == ValueKind::Tensor ||
               classify(Each.getAsType()) == ValueKind::TensorList))
            return ValueKind::TensorList;
      }
  }
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl()) {
      ValueKind BaseKind = classifyRecord(*BaseRecord);
      if (BaseKind == ValueKind::Tensor || BaseKind == ValueKind::Module)
        return BaseKind;
    }
  return ValueKind::Other;
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
  const DeclContext *Outermost = nullptr;
  for (const DeclContext *Ctx = Record.getDeclContext(); Ctx && !Ctx->isTranslationUnit();
       Ctx = Ctx->getParent())
    if (Ctx->isNamespace() && !cast<NamespaceDecl>(Ctx)->isInline())
      Outermost = Ctx;
  return Outermost && isApiNamespace(cast<NamespaceDecl>(Outermost)->getName());
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

CallKind ApiModel::classifyFreeFunction(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return CallKind::Unmodelled;
  // The outermost enclosing namespace decides (torch::nn::functional::relu
  // belongs to torch).
  const DeclContext *Outermost = nullptr;
  for (const DeclContext *Ctx = Function.getDeclContext(); Ctx && !Ctx->isTranslationUnit();
       Ctx = Ctx->getParent())
    if (Ctx->isNamespace() && !cast<NamespaceDecl>(Ctx)->isInline())
      Outermost = Ctx;
  if (!Outermost || !isApiNamespace(cast<NamespaceDecl>(Outermost)->getName()))
    return CallKind::Unmodelled;
  return llvm::StringSwitch<CallKind>(Function.getName())
      .Cases("zeros", "ones", "empty", "full", "arange", CallKind::Factory)
      .Cases("rand", "randn", "randint", "tensor", CallKind::Factory)
      .Cases("linspace", "eye", CallKind::Factory)
      .Cases("zeros_like", "ones_like", "empty_like", "full_like",
             CallKind::FactoryLike)
      .Cases("rand_like", "randn_like", CallKind::FactoryLike)
      .Case("scalar_tensor", CallKind::ScalarFactory)
      .Cases("add", "sub", "mul", "div", "matmul", CallKind::SameDeviceOp)
      .Cases("mm", "bmm", "dot", "mv", "addmm", CallKind::SameDeviceOp)
      .Cases("maximum", "minimum", "where", "atan2", CallKind::SameDeviceOp)
      .Cases("cat", "stack", "concat", "hstack", "vstack", CallKind::ListOp)
      .Case("from_blob", CallKind::WrapsHostMemory)
      .Case("device", CallKind::OptionsDevice)
      .Cases("dtype", "layout", "requires_grad", CallKind::OptionsBuilder)
      .Default(CallKind::OtherApi);
}

CallKind ApiModel::classifyTensorMethod(llvm::StringRef Name) {
  return llvm::StringSwitch<CallKind>(Name)
      .Cases("to", "cuda", "cpu", CallKind::Transfer)
      .Cases("add", "sub", "mul", "div", "matmul", CallKind::SameDeviceOp)
      .Cases("mm", "bmm", "dot", "mv", CallKind::SameDeviceOp)
      .Cases("add_", "sub_", "mul_", "div_", CallKind::SameDeviceOp)
      .Cases("maximum", "minimum", "pow", "pow_", CallKind::SameDeviceOp)
      .Cases("eq", "ne", "lt", "le", "gt", "ge", CallKind::SameDeviceOp)
      .Case("copy_", CallKind::CrossDeviceCopy)
      // Indices may stay on the cpu for any tensor (PyTorch moves them).
      .Cases("index", "index_put_", "index_put", CallKind::Indexing)
      .Cases("sum", "mean", "max", "min", "prod", CallKind::FullReduction)
      .Cases("norm", "argmax", "argmin", "std", "var", CallKind::FullReduction)
      .Cases("median", "all", "any", "amax", "amin", CallKind::FullReduction)
      .Cases("nansum", "nanmean", "count_nonzero", CallKind::FullReduction)
      .Cases("relu", "exp", "log", "neg", "abs", CallKind::ShapePreserving)
      .Cases("sigmoid", "tanh", "sqrt", "clone", "detach", CallKind::ShapePreserving)
      .Cases("contiguous", "float", "double", "half", "long", CallKind::ShapePreserving)
      .Cases("int", "bool", "round", "floor", "ceil", CallKind::ShapePreserving)
      .Cases("clamp", "clamp_min", "clamp_max", "sign", "square", CallKind::ShapePreserving)
      .Cases("t", "transpose", "permute", "softmax", "log_softmax", CallKind::ShapePreserving)
      .Cases("slice", "narrow", "flip", "roll", "tile", CallKind::ShapePreserving)
      .Cases("relu_", "exp_", "neg_", "abs_", "zero_", CallKind::ShapePreserving)
      .Cases("clamp_", "fill_", "uniform_", "normal_", "detach_", CallKind::ShapePreserving)
      .Cases("requires_grad_", "sigmoid_", "tanh_", "sqrt_", CallKind::ShapePreserving)
      .Case("device", CallKind::DeviceOf)
      .Case("options", CallKind::OptionsOf)
      .Case("item", CallKind::SyncToHost)
      .Default(CallKind::Unmodelled);
}

CallKind ApiModel::classifyOptionsMethod(llvm::StringRef Name) {
  return llvm::StringSwitch<CallKind>(Name)
      .Case("device", CallKind::OptionsDevice)
      .Cases("dtype", "layout", "requires_grad", "pinned_memory",
             CallKind::OptionsBuilder)
      .Case("memory_format", CallKind::OptionsBuilder)
      .Default(CallKind::Unmodelled);
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
