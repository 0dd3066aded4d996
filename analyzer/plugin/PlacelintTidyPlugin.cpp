// The clang-tidy plugin: stock clang-tidy dlopens this object, whose static
// registration (in PlacementTidyModule.cpp) adds the placement checks. The
// anchor reference keeps that object file in the link.
namespace clang::tidy {
extern volatile int PlacelintModuleAnchorSource;
[[maybe_unused]] static int PlacelintModuleAnchorDestination =
    PlacelintModuleAnchorSource;
} // namespace clang::tidy
