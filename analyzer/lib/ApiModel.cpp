#include "placelint/analysis/ApiModel.h"

#include "ApiSpellings.h"
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

enum class ApiCallProfile { Shared, LibtorchOnly, LibtorchOverride };

// An api.def PL_API_CALL line's table: what the name is called on.
enum class ApiCallTable { Free, Tensor, Options, Module, Optimizer, Stream, Std, List };

struct ApiCallLine {
  ApiCallProfile Profile;
  ApiCallTable Table;
  llvm::StringRef Name;
  ApiCall Call;
};

ApiCall modelled(CallKind Kind, ResultRank Rank, bool InPlace, bool Strict) {
  ApiCall Call{Kind, Rank};
  Call.InPlace = InPlace;
  Call.AdmitsCpuScalar = !Strict;
  return Call;
}

constexpr bool PlainIsInPlace = false, InPlaceIsInPlace = true, StrictIsInPlace = false;
constexpr bool PlainIsStrict = false, InPlaceIsStrict = false, StrictIsStrict = true;

const ApiCallLine ApiCallLines[] = {
#define PL_API_CALL(Profile, Table, Name, Kind, Rank, Model)                                       \
  {ApiCallProfile::Profile, ApiCallTable::Table, Name,                                             \
   modelled(CallKind::Kind, ResultRank::Rank, Model##IsInPlace, Model##IsStrict)},
#include <placelint/api.def>
};

ApiNames ProfileTable::*profileTableOf(ApiCallTable Table) {
  switch (Table) {
  case ApiCallTable::Free:
    return &ProfileTable::FreeFunctions;
  case ApiCallTable::Tensor:
    return &ProfileTable::TensorMethods;
  case ApiCallTable::Options:
    return &ProfileTable::OptionsMethods;
  case ApiCallTable::Module:
    return &ProfileTable::ModuleMethods;
  case ApiCallTable::Optimizer:
    return &ProfileTable::OptimizerMethods;
  case ApiCallTable::Stream:
    return &ProfileTable::StreamMethods;
  case ApiCallTable::Std:
  case ApiCallTable::List:
    break;
  }
  return nullptr; // std's tables are every profile's (stdFunctions, listMethods)
}

std::vector<ApiLine> linesOf(ApiCallProfile Profile) {
  std::vector<ApiLine> Lines;
  for (const ApiCallLine &Line : ApiCallLines)
    if (Line.Profile == Profile)
      if (ApiNames ProfileTable::*Table = profileTableOf(Line.Table))
        Lines.push_back({Table, Line.Name, Line.Call});
  return Lines;
}

ApiNames namesOf(ApiCallTable Table) {
  ApiNames Names;
  for (const ApiCallLine &Line : ApiCallLines)
    if (Line.Table == Table)
      Names[Line.Name] = Line.Call;
  return Names;
}

// A profile's classes, namespaces, availability checks and synchronisation
// (api.def), the op catalogue, then its own lines.
ProfileTable makeProfile(ApiProfile Profile, llvm::StringRef Name) {
  ProfileTable Table;
  Table.Name = Name;
  std::vector<llvm::StringRef> ProfileTable::*Classes[] = {
      &ProfileTable::TensorClasses, &ProfileTable::DeviceClasses,
      &ProfileTable::DeviceTypeEnums, &ProfileTable::OptionsClasses,
      &ProfileTable::ModuleClasses, &ProfileTable::TensorHolderClasses};
  enum ClassRole { Tensor, Device, DeviceTypeEnum, Options, Module, TensorHolder };
#define PL_API_CLASS(In, Role, ClassName)                                                          \
  if (ApiProfile::In == Profile)                                                                   \
    (Table.*Classes[Role]).push_back(ClassName);
#define PL_API_NAMESPACE(In, Namespace)                                                            \
  if (ApiProfile::In == Profile)                                                                   \
    Table.ApiNamespaces.push_back(Namespace);
#define PL_API_AVAILABILITY(In, Kind, Function)                                                    \
  if (ApiProfile::In == Profile)                                                                   \
    Table.AvailabilityChecks.push_back({Function, AvailabilityKind::Kind});
#define PL_API_SYNCHRONIZE_ALL(In, Spelling)                                                       \
  if (ApiProfile::In == Profile)                                                                   \
    Table.CudaSynchronize = Spelling;
#define PL_API_FIX_SPELLING(In, Role, Text)                                                        \
  if (ApiProfile::In == Profile)                                                                   \
    Table.FixSpelling.Role = Text;
#include <placelint/api.def>
  addCatalogueOps(Table);
  if (Profile == ApiProfile::Libtorch) {
    for (const ApiLine &Line : libtorchOnlyLines())
      (Table.*Line.Table)[Line.Name] = Line.Call;
    for (const ApiLine &Line : libtorchOverrides())
      (Table.*Line.Table)[Line.Name] = Line.Call;
  }
  for (const ApiLine &Line : linesOf(ApiCallProfile::Shared))
    (Table.*Line.Table)[Line.Name] = Line.Call;
  return Table;
}

// std's facilities that hold or pass on tensors, for every profile.
const ApiNames &stdFunctions() {
  static const ApiNames Names = namesOf(ApiCallTable::Std);
  return Names;
}

// The methods of a container of tracked values.
const ApiNames &listMethods() {
  static const ApiNames Names = namesOf(ApiCallTable::List);
  return Names;
}

} // namespace

llvm::ArrayRef<ApiLine> libtorchOnlyLines() {
  static const std::vector<ApiLine> Lines = linesOf(ApiCallProfile::LibtorchOnly);
  return Lines;
}

llvm::ArrayRef<ApiLine> libtorchOverrides() {
  static const std::vector<ApiLine> Lines = linesOf(ApiCallProfile::LibtorchOverride);
  return Lines;
}

const ProfileTable &profileTable(ApiProfile Profile) {
  static const ProfileTable Pl = makeProfile(ApiProfile::Pl, "pl");
  static const ProfileTable Libtorch = makeProfile(ApiProfile::Libtorch, "libtorch");
  return Profile == ApiProfile::Libtorch ? Libtorch : Pl;
}

namespace {

// The outermost namespace enclosing D (torch for torch::nn::functional::relu).
const NamespaceDecl *outermostNamespace(const Decl &D) {
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *Ctx = D.getDeclContext(); Ctx && !Ctx->isTranslationUnit();
       Ctx = Ctx->getParent())
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(Ctx); Namespace && !Namespace->isInline())
      Outermost = Namespace;
  return Outermost;
}

} // namespace

std::optional<ApiProfile> profileDeclaring(const Decl &D) {
  const NamespaceDecl *Outermost = outermostNamespace(D);
  if (!Outermost)
    return std::nullopt;
  for (ApiProfile Profile : {ApiProfile::Pl, ApiProfile::Libtorch})
    if (llvm::is_contained(profileTable(Profile).ApiNamespaces, Outermost->getName()))
      return Profile;
  return std::nullopt;
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
  std::optional<StdHolder> Holder = stdHolder(Template);
  return Holder == StdHolder::Pointer || Holder == StdHolder::Optional;
}

// std's containers, and which template argument is the element: a map's
// elements are its mapped values.
std::optional<unsigned> containerElement(llvm::StringRef Template) {
  std::optional<StdHolder> Holder = stdHolder(Template);
  if (Holder == StdHolder::Sequence)
    return 0;
  if (Holder == StdHolder::Map)
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
    if (stdHolder(Template) == StdHolder::Tuple) {
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
        (hasApiName(ApiNameRole::ModuleHolder, Spec->getName()) ||
         stdHolder(Spec->getQualifiedNameAsString()) == StdHolder::Pointer)) {
      Record = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      continue;
    }
    if (Definition->getNumBases() == 1 &&
        !hasApiName(ApiNameRole::ModuleBase, Definition->getName())) {
      const CXXRecordDecl *Base = Definition->bases_begin()->getType()->getAsCXXRecordDecl();
      if (const auto *BaseSpec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Base);
          BaseSpec && hasApiName(ApiNameRole::ModuleHolder, BaseSpec->getName())) {
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
  return withoutApiSuffix(ApiNameRole::ModuleImpl, Record.getName());
}

} // namespace

std::optional<AvailabilityKind>
ApiModel::availabilityCheck(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return std::nullopt;
  std::string Qualified = Function.getQualifiedNameAsString();
  for (ApiProfile Profile : Profiles)
    for (const auto &[Listed, Kind] : profileTable(Profile).AvailabilityChecks)
      if (Listed == Qualified)
        return Kind;
  llvm::StringRef Name = Function.getName();
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
      Method->getName() != apiName(ApiNameRole::TestBody) ||
      !Method->getParent()->getIdentifier())
    return 0;
  llvm::StringRef Test = Method->getParent()->getName();
  if (!Test.consume_back(apiName(ApiNameRole::TestClass)))
    return 0;
  unsigned Devices = 0;
  for (const auto &[Suffix, Count] : GpuTestSuffixes)
    if (Test.ends_with(Suffix))
      Devices = std::max(Devices, Count);
  return Devices;
}

bool ApiModel::isLossModule(QualType Type) const {
  const CXXRecordDecl *Record = libraryModule(Type);
  return Record && hasApiName(ApiNameRole::LossModule, moduleName(*Record));
}

bool ApiModel::isStatelessModule(QualType Type) const {
  const CXXRecordDecl *Record = libraryModule(Type);
  if (!Record)
    return false;
  llvm::StringRef Name = moduleName(*Record);
  return hasApiName(ApiNameRole::StatelessModule, Name) &&
         !hasApiName(ApiNameRole::StatefulModule, Name);
}

bool ApiModel::isOptimizer(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->getDefinition())
    return false;
  auto InOptim = [&](const CXXRecordDecl *R) {
    std::string Name = R->getQualifiedNameAsString();
    for (ApiProfile Profile : Profiles)
      for (llvm::StringRef Namespace : profileTable(Profile).ApiNamespaces)
        if (llvm::StringRef(Name).starts_with(
                (Namespace + "::" + apiName(ApiNameRole::OptimizerSpace) + "::").str()))
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
  return Record && stdHolder(Record->getQualifiedNameAsString()) == StdHolder::Tuple;
}

bool ApiModel::isOptional(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && stdHolder(Record->getQualifiedNameAsString()) == StdHolder::Optional;
}

bool ApiModel::isDataLoader(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && hasApiName(ApiNameRole::DataLoader, Record->getName());
}

bool ApiModel::isDataset(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  auto Named = [](const CXXRecordDecl *R) {
    return hasApiName(ApiNameRole::Dataset, R->getQualifiedNameAsString());
  };
  return Named(Record) || !Record->getDefinition()->forallBases([&](const CXXRecordDecl *Base) {
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
  const NamespaceDecl *Outermost = outermostNamespace(D);
  return Outermost && isApiNamespace(Outermost->getName());
}

ApiCall ApiModel::classifyFunction(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return {};
  llvm::StringRef Name = Function.getName();
  if (Function.isInStdNamespace()) {
    ApiCall Std = stdFunction(Function);
    if (Std.Kind == CallKind::MakeShared && isOptimizer(smartPointee(Function.getReturnType())))
      Std.Kind = CallKind::OptimizerConstruction;
    return Std;
  }
  if (!isInApiNamespace(Function))
    return {};
  if (ApiCall Listed = lookup(&ProfileTable::FreeFunctions, Name); Listed.isModelled())
    return Listed;
  if (hasApiName(ApiNameRole::LossFunction, Name))
    return call(CallKind::Loss, ResultRank::ZeroDim);
  return call(CallKind::OtherApi, ResultRank::Unknown);
}

ApiCall ApiModel::stdFunction(const FunctionDecl &Function) {
  if (!Function.getIdentifier())
    return {};
  return stdFunctions().lookup(Function.getName());
}

llvm::StringRef ApiModel::moduleForwardName() {
  for (const ApiCallLine &Line : ApiCallLines)
    if (Line.Table == ApiCallTable::Module && Line.Call.Kind == CallKind::ModuleForward)
      return Line.Name;
  return {};
}

// A loss's options: `CrossEntropyLossOptions().weight(w)`.
bool ApiModel::isLossWeightSetter(const CXXMethodDecl &Method) const {
  return hasApiName(ApiNameRole::LossOptions, Method.getParent()->getName()) &&
         Method.getIdentifier() && hasApiName(ApiNameRole::LossWeightSetter, Method.getName()) &&
         Method.getNumParams() == 1 &&
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
    Other.InPlace = hasApiName(ApiNameRole::InPlaceMethod, Name);
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
    if (!Param->getIdentifier() || Param->getName() != apiName(ApiNameRole::NonBlocking) ||
        isa<CXXDefaultArgExpr>(Arg))
      continue;
    bool Value = false;
    return !Arg->isValueDependent() && Arg->EvaluateAsBooleanCondition(Value, Callee->getASTContext()) && Value;
  }
  return false;
}

std::optional<DeviceKind> ApiModel::deviceKindOfEnumerator(llvm::StringRef Name) {
  // devices.def's enumerators (CPU, CUDA), or their constants (kCPU, kCUDA).
  llvm::StringRef Constant = Name;
  bool IsConstant = Constant.consume_front(apiName(ApiNameRole::DeviceConstant));
  for (const DeviceTypeEntry &Entry : kDeviceTypes)
    if (Name == llvm::StringRef(Entry.enumerator) ||
        (IsConstant && Constant == llvm::StringRef(Entry.enumerator)))
      return Entry.kind;
  return std::nullopt;
}

} // namespace placelint::analysis
