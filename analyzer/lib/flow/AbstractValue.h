// The value of an expression, a variable or a part of one, as the flow
// analysis passes it around (private to analyzer/lib): the fact of the
// value as a whole and the facts of the parts it tracks apart. For a
// tensor, Device, options, module or list, Whole is the value itself (for a
// list, what its elements may be); for an aggregate (a struct, a tuple, a
// pair), Whole is what every part not listed holds.
#pragma once

#include "flow/AccessPath.h"
#include "placelint/analysis/ValueFact.h"

#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace placelint::analysis {

struct AbstractValue {
  using Part = std::pair<AccessPath, ValueFact>; // a path relative to the value

  ValueFact Whole;
  // Sorted by path, no duplicates, none deeper than AccessPath::kMaxDepth.
  llvm::SmallVector<Part, 0> Parts;

  AbstractValue() = default;
  AbstractValue(ValueFact Whole) : Whole(std::move(Whole)) {} // NOLINT: a value without parts
  // The value of Whole with Parts (paths relative to it, none twice), given
  // in any order: a part and the parts below it are all kept, where set()
  // would drop those below a part set after them.
  static AbstractValue withParts(ValueFact Whole, llvm::SmallVector<Part, 0> Parts);

  // The fact of the part at Relative: its own, else its nearest listed
  // ancestor's, else Whole.
  const ValueFact &at(const AccessPath &Relative) const;
  // The value of the part at Relative, its own parts included.
  AbstractValue below(const AccessPath &Relative) const;
  // Sets the part at Relative to Value (and drops what was below it).
  void set(const AccessPath &Relative, const AbstractValue &Value);
  // Part by part: each part of either side, from both.
  AbstractValue join(const AbstractValue &Other) const;

  friend bool operator==(const AbstractValue &, const AbstractValue &) = default;
};

} // namespace placelint::analysis
