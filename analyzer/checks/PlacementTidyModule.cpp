// The "placement" clang-tidy module: registers the checks under the rule ids
// of the catalogue.
#include "DiscardedTransferCheck.h"
#include "MixedDeviceCheck.h"
#include "TransferInLoopCheck.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

#include <placelint/rules.h>

namespace clang::tidy {
namespace placement {

class PlacementModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    using placelint::Rule;
    using placelint::ruleId;
    Factories.registerCheck<MixedDeviceCheck>(ruleId(Rule::MixedDevice));
    Factories.registerCheck<DiscardedTransferCheck>(ruleId(Rule::DiscardedTransfer));
    Factories.registerCheck<TransferInLoopCheck>(ruleId(Rule::TransferInLoop));
  }
};

} // namespace placement

static ClangTidyModuleRegistry::Add<placement::PlacementModule>
    PlacementModuleRegistration("placelint-module", "Adds placement checks.");

// Referenced by the plugin and the placelint driver to keep this module in a
// static link (as clang-tidy does for its own modules).
volatile int PlacelintModuleAnchorSource = 0;

} // namespace clang::tidy
