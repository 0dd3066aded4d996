// The device lattice: which devices a tensor (or a Device value) may be on at
// one program point. A small value type with no dependency on the AST beyond
// an opaque pointer naming the Device variable of a symbolic device, so its
// algebra is unit-tested on its own.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <placelint/device_grammar.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class NamedDecl;
} // namespace clang

namespace placelint::analysis {

// One abstract device: a concrete device (cpu, cuda:k, sim:k, or the current
// device of a type: `cuda`, `sim`), or a symbolic one: the unknown value
// held by a Device variable, or the device a module was moved to.
class AbstractDevice {
public:
  static constexpr std::int16_t kCurrentIndex = -1;

  // What the device is; the symbolic forms name their symbol.
  enum class Form : std::uint8_t {
    Concrete,
    Variable, // the value of a Device variable
    Module    // wherever a module of one class has been moved to
  };

  static AbstractDevice cpu() { return {Form::Concrete, DeviceKind::CPU, 0, nullptr}; }
  static AbstractDevice cuda(std::int16_t Index = kCurrentIndex) {
    return {Form::Concrete, DeviceKind::CUDA, Index, nullptr};
  }
  static AbstractDevice sim(std::int16_t Index = kCurrentIndex) {
    return {Form::Concrete, DeviceKind::Sim, Index, nullptr};
  }
  // A concrete device of Type (the grammar's kinds), current index unless given.
  static AbstractDevice ofType(DeviceKind Type, std::int16_t Index = kCurrentIndex) {
    return {Form::Concrete, Type, Type == DeviceKind::CPU ? std::int16_t(0) : Index, nullptr};
  }
  // The value of a Device variable.
  static AbstractDevice symbolic(const clang::NamedDecl *Var) {
    return {Form::Variable, DeviceKind::CPU, 0, Var};
  }
  // Wherever a module of class Module has been moved to: inside its own
  // methods, the device of its registered parameters and of its input.
  static AbstractDevice ofModule(const clang::NamedDecl *Module) {
    return {Form::Module, DeviceKind::CPU, 0, Module};
  }

  Form form() const { return DeviceForm; }
  // The device type and index of a concrete device (meaningless for a
  // symbolic one).
  DeviceKind type() const { return Type; }
  std::int16_t index() const { return Index; }
  const clang::NamedDecl *symbol() const { return Symbol; }
  bool isModuleDevice() const { return DeviceForm == Form::Module; }
  bool isConcrete() const { return DeviceForm == Form::Concrete; }
  bool isCpu() const { return isConcrete() && Type == DeviceKind::CPU; }
  bool isCuda() const { return isConcrete() && Type == DeviceKind::CUDA; }

  friend bool operator==(const AbstractDevice &, const AbstractDevice &) = default;
  // A total order, so that sets have one canonical representation.
  friend bool operator<(const AbstractDevice &L, const AbstractDevice &R);

private:
  AbstractDevice(Form DeviceForm, DeviceKind Type, std::int16_t Index,
                 const clang::NamedDecl *Symbol)
      : DeviceForm(DeviceForm), Type(Type), Index(Index), Symbol(Symbol) {}

  Form DeviceForm;
  DeviceKind Type;
  std::int16_t Index;
  const clang::NamedDecl *Symbol;
};

// How two abstract devices relate at run time.
enum class Agreement {
  Same,      // the same device (the current cuda and cuda:k count as the same)
  Differ,    // certainly different devices
  MayDiffer, // a symbolic device against a concrete one
  Unrelated  // two different Device variables: nothing can be said
};
Agreement compare(const AbstractDevice &L, const AbstractDevice &R);

// Names a symbolic device's variable for printing.
using SymbolNamer = llvm::function_ref<std::string(const clang::NamedDecl *)>;

// `cpu`, `cuda`, `cuda:1`, `sim:0`, `the device in 'dev'`, `the device of 'Net'`.
std::string describe(const AbstractDevice &Device, SymbolNamer NameOf);

// Bottom (nothing reaches this point yet), a set of at most kMaxDevices
// abstract devices, or Unknown (top). Joining more than kMaxDevices
// different devices gives Unknown, which bounds the lattice's height.
class DeviceSet {
public:
  static constexpr std::size_t kMaxDevices = 4;

  DeviceSet() = default; // bottom
  static DeviceSet bottom() { return {}; }
  static DeviceSet unknown();
  static DeviceSet of(const AbstractDevice &Device);

  bool isBottom() const { return State == Shape::Bottom; }
  bool isUnknown() const { return State == Shape::Unknown; }
  bool isKnown() const { return State == Shape::Set; }
  // The device when the set holds exactly one.
  std::optional<AbstractDevice> single() const;
  // True when every member is a concrete device (and there is one at least).
  bool allConcrete() const;
  // True when the set is known and none of its members is the host (a
  // Device variable's device may be CUDA).
  bool excludesCpu() const;
  llvm::ArrayRef<AbstractDevice> devices() const {
    return llvm::ArrayRef(Members.data(), Size);
  }

  DeviceSet join(const DeviceSet &Other) const;
  // The set with every member that satisfies Drop replaced by Unknown.
  DeviceSet forgetIf(llvm::function_ref<bool(const AbstractDevice &)> Drop) const;
  // The set with From, if a member, replaced by the members of To.
  DeviceSet substitute(const AbstractDevice &From, const DeviceSet &To) const;

  friend bool operator==(const DeviceSet &L, const DeviceSet &R);

  // `bottom`, `unknown`, a single device, or `cpu or cuda:1`.
  std::string describe(SymbolNamer NameOf) const;

private:
  enum class Shape : std::uint8_t { Bottom, Set, Unknown };
  Shape State = Shape::Bottom;
  std::uint8_t Size = 0;
  // Sorted, no duplicates; only the first Size entries are meaningful.
  std::array<AbstractDevice, kMaxDevices> Members{
      AbstractDevice::cpu(), AbstractDevice::cpu(), AbstractDevice::cpu(),
      AbstractDevice::cpu()};
};

// Whether a tensor is 0-dim (a PyTorch "scalar tensor"): yes, no, or unknown;
// Matrix: not, and neither is an element of it (`x[i]` of two dims or more).
enum class ZeroDim : std::uint8_t { Yes, No, Unknown, Matrix };
ZeroDim join(ZeroDim L, ZeroDim R);
inline bool notZeroDim(ZeroDim Value) { return Value == ZeroDim::No || Value == ZeroDim::Matrix; }
// The dims of a value combined with one of Value's (broadcasting: the most
// of either).
ZeroDim broadcast(ZeroDim L, ZeroDim R);
const char *describe(ZeroDim Value);

} // namespace placelint::analysis
