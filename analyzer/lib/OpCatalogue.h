// The analyzer's view of the op catalogue, <placelint/ops.def>: how each op
// the runtime defines is modelled (private to analyzer/lib). The pl profile
// is this table and the names both APIs share beyond ops (options, modules,
// optimizers); the libtorch profile adds libtorch's extra names and its
// overrides (libtorchOnlyLines, libtorchOverrides) to it.
#pragma once

#include "placelint/analysis/ApiModel.h"

namespace placelint::analysis {

// Adds every op of the catalogue to Table: its method and in-place method
// to TensorMethods, its free function to FreeFunctions, each with the call
// kind its catalogue entry implies (from its Kind, Devices, Result and
// Rank), the in-place method marked InPlace.
void addCatalogueOps(ProfileTable &Table);

} // namespace placelint::analysis
