// The factory call rewritten to make its tensor where a move then took it:
// the fix-it of placement-create-then-move and placement-non-leaf-parameter.
#include "CheckSupport.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::placement {

using placelint::analysis::ApiProfile;
using placelint::analysis::profileTable;

namespace {

// The profile the factory was called from, whose spelling the fix-it writes.
ApiProfile factoryProfile(const CallExpr &Factory) {
  const FunctionDecl *Callee = Factory.getDirectCallee();
  return Callee ? placelint::analysis::profileDeclaring(*Callee).value_or(ApiProfile::Libtorch)
                : ApiProfile::Libtorch;
}

// Whether Record is one of the profile's classes of that role (by canonical
// qualified name: `at::Tensor` for torch::Tensor).
bool isProfileClass(const CXXRecordDecl *Record, const std::vector<StringRef> &Classes) {
  return Record && llvm::is_contained(Classes, Record->getQualifiedNameAsString());
}

} // namespace

std::optional<std::string> PlacementCheck::moveTargetText(const CXXMemberCallExpr &Move,
                                                          ApiProfile Profile) const {
  const auto &Table = profileTable(Profile);
  const auto &Spell = Table.FixSpelling;
  placelint::analysis::ApiCall Transfer =
      Table.TensorMethods.lookup(Move.getMethodDecl()->getName());
  if (Transfer.Kind != placelint::analysis::CallKind::Transfer)
    return std::nullopt;
  unsigned Written = 0;
  for (const Expr *Arg : Move.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      ++Written;
  std::string Cuda = (Spell.Namespace + "::" + Spell.CudaConstant).str();
  if (Transfer.Target == placelint::analysis::TransferTarget::Cuda)
    return Written == 0 ? Cuda
                        : (Spell.Namespace + "::" + Spell.DeviceClass + "(" + Cuda + ", " +
                           text(Move.getArg(0)) + ")")
                              .str();
  if (Transfer.Target != placelint::analysis::TransferTarget::Argument || Written == 0)
    return std::nullopt;
  const Expr *Target = Move.getArg(0);
  std::string Text = text(Target);
  if (Text.empty())
    return std::nullopt;
  // What was written, before a conversion (a Device becomes options for
  // `to(TensorOptions)`).
  const Expr *Value = Target->IgnoreImplicit();
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(Value)) {
    if (Construct->getNumArgs() != 1 || Construct->isListInitialization())
      break;
    Value = Construct->getArg(0)->IgnoreImplicit();
  }
  const CXXRecordDecl *Record = Value->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (isProfileClass(Record, Table.TensorClasses))
    return Text + "." + Spell.DeviceRead.str() + "()";
  if (isProfileClass(Record, Table.OptionsClasses))
    return std::nullopt; // options that carry more than a device
  return Text;
}

std::optional<PlacementCheck::FactoryOnDevice>
PlacementCheck::factoryOnDevice(const CallExpr &Factory, const CXXMemberCallExpr &Move) const {
  if (!Factory.getBeginLoc().isFileID() || !Move.getEndLoc().isFileID())
    return std::nullopt;
  FactoryOnDevice Result;
  ApiProfile Profile = factoryProfile(Factory);
  const auto &Table = profileTable(Profile);
  const auto &Spell = Table.FixSpelling;
  Result.Api = Spell.Namespace.str();
  std::optional<std::string> Device = moveTargetText(Move, Profile);
  if (!Device)
    return std::nullopt;
  Result.Device = *Device;
  // `.to(device, dtype)` moves both.
  if (Table.TensorMethods.lookup(Move.getMethodDecl()->getName()).Target ==
          placelint::analysis::TransferTarget::Argument &&
      Move.getNumArgs() >= 2 &&
      !isa<CXXDefaultArgExpr>(Move.getArg(1)) && Move.getArg(1)->getType()->isEnumeralType())
    Result.Extra = "." + Spell.OptionsDtype.str() + "(" + text(Move.getArg(1)) + ")";
  // The factory's written options, if any: extended with the device.
  for (const Expr *Arg : Factory.arguments())
    if (const CXXRecordDecl *Record = Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
        !isa<CXXDefaultArgExpr>(Arg) && isProfileClass(Record, Table.OptionsClasses))
      Result.Options = text(Arg);
  Result.DeviceObject = Result.Api + "::" + Spell.DeviceClass.str() + "(" + Result.Device + ")";
  Result.OptionsOnDevice = Result.Api + "::" + Spell.OptionsClass.str() + "(" + Result.Options +
                           ")." + Spell.OptionsDevice.str() + "(" + Result.Device + ")" +
                           Result.Extra;
  std::string FactoryText = text(&Factory);
  if (FactoryText.empty() || FactoryText.back() != ')')
    return std::nullopt;
  if (!Result.Options.empty()) {
    size_t At = FactoryText.rfind(Result.Options);
    if (At == std::string::npos)
      return std::nullopt;
    Result.Factory = FactoryText.substr(0, At) + Result.OptionsOnDevice +
                     FactoryText.substr(At + Result.Options.size());
    return Result;
  }
  std::string NewOptions = Result.Api + "::" + Spell.DeviceOptions.str() + "(" +
                           Result.Device + ")" + Result.Extra;
  bool NoArguments = llvm::all_of(Factory.arguments(),
                                  [](const Expr *Arg) { return isa<CXXDefaultArgExpr>(Arg); });
  Result.Factory = FactoryText.substr(0, FactoryText.size() - 1) + (NoArguments ? "" : ", ") +
                   NewOptions + ")";
  return Result;
}

} // namespace clang::tidy::placement
