// placelint-reshape carries each marker to where the finding must now be, and
// leaves what the program does as it was.
//
// RUN: rm -rf %t && %reshape %S/Inputs/standardise.cpp -o %t \
// RUN:   --transforms extract-ref,extract-below,member-constructor,do-once,if-same,hold-vector,rename,helpers-below \
// RUN:   -- -std=c++20 %pl_includes | %filecheck %s --check-prefix=SUMMARY
// SUMMARY: standardise.cpp: 8 variants written, 0 dropped (do not compile), 0 transforms without a site
//
// The statement moves into a helper taking its operands by reference; the
// marker moves with it, and the call keeps the declaration's place.
// RUN: %filecheck %s --input-file %t/standardise.extract-ref.cpp --check-prefix=EXTRACT
// EXTRACT:      // placelint-reshape: extract-ref of standardise.cpp
// EXTRACT:      pl::Tensor reshape_helper0(const pl::Tensor& readings, const pl::Tensor& column_means) {
// EXTRACT-NEXT:   return readings - column_means; // expect: placement-mixed-device
// EXTRACT-NEXT: }
// EXTRACT:      const pl::Tensor centred = reshape_helper0(readings, column_means);{{$}}
//
// Below its caller: declared above, defined after.
// RUN: %filecheck %s --input-file %t/standardise.extract-below.cpp --check-prefix=BELOW
// BELOW:      pl::Tensor reshape_helper0(const pl::Tensor& readings, const pl::Tensor& column_means);
// BELOW:      void standardise(
// BELOW:      pl::Tensor reshape_helper0(const pl::Tensor& readings, const pl::Tensor& column_means) {
// BELOW-NEXT:   return readings - column_means; // expect: placement-mixed-device
//
// A struct holds the operands as fields, set by its constructor.
// RUN: %filecheck %s --input-file %t/standardise.member-constructor.cpp --check-prefix=MEMBER
// MEMBER:      struct ReshapeStep0 {
// MEMBER-NEXT:   pl::Tensor readings;
// MEMBER-NEXT:   pl::Tensor column_means;
// MEMBER-NEXT:   ReshapeStep0(pl::Tensor readings_value, pl::Tensor column_means_value) : readings(readings_value), column_means(column_means_value) {}
// MEMBER-NEXT:   pl::Tensor run() {
// MEMBER-NEXT:     return readings - column_means; // expect: placement-mixed-device
// MEMBER:      ReshapeStep0 reshape_step0(readings, column_means);
// MEMBER-NEXT: const pl::Tensor centred = reshape_step0.run();
//
// A declaration is split before it is wrapped: the declaration stays in scope.
// RUN: %filecheck %s --input-file %t/standardise.do-once.cpp --check-prefix=ONCE
// ONCE:      pl::Tensor centred;
// ONCE-NEXT: do { centred = readings - column_means; } while (false); // expect: placement-mixed-device
//
// Both branches do the same; the marker stays on the line that holds both.
// RUN: %filecheck %s --input-file %t/standardise.if-same.cpp --check-prefix=IF
// IF: if (std::getenv("PLACELINT_RESHAPE_NEVER_SET") != nullptr) { centred = readings - column_means; } else { centred = readings - column_means; } // expect: placement-mixed-device
//
// Each tensor operand is read back from a vector filled just before.
// RUN: %filecheck %s --input-file %t/standardise.hold-vector.cpp --check-prefix=VECTOR
// VECTOR:      #include <vector>
// VECTOR:      std::vector<pl::Tensor> reshape_held0{readings};
// VECTOR-NEXT: std::vector<pl::Tensor> reshape_held1{column_means};
// VECTOR-NEXT: const pl::Tensor centred = reshape_held0[0] - reshape_held1[0]; // expect: placement-mixed-device
//
// Every local and parameter renamed, declarations and uses alike.
// RUN: %filecheck %s --input-file %t/standardise.rename.cpp --check-prefix=RENAME
// RENAME: pl::Tensor load_batch(int rows_renamed, int columns_renamed = 4) { return pl::ones({rows_renamed, columns_renamed}); }
// RENAME: const pl::Tensor centred_renamed = readings_renamed - column_means_renamed; // expect: placement-mixed-device
//
// The program's own helper moves below its callers; its default argument
// stays on the declaration.
// RUN: %filecheck %s --input-file %t/standardise.helpers-below.cpp --check-prefix=HELPERS
// HELPERS:     pl::Tensor load_batch(int rows, int columns = 4);
// HELPERS:     int main()
// HELPERS:     pl::Tensor load_batch(int rows, int columns) { return pl::ones({rows, columns}); }
//
// The manifest lists each variant with the transforms that made it.
// RUN: %filecheck %s --input-file %t/standardise.reshape.json --check-prefix=MANIFEST
// MANIFEST: "file": "standardise.do-once.cpp",
// MANIFEST-NEXT: "transforms": [
// MANIFEST-NEXT: "do-once"
//
// Pairs: the second transform rewrites the first one's variant, where the
// marker now is (a return is a site too); the header names the chain.
// RUN: rm -rf %t.pairs && %reshape %S/Inputs/standardise.cpp -o %t.pairs --transforms extract-value,lambda-now --pairs \
// RUN:   -- -std=c++20 %pl_includes | %filecheck %s --check-prefix=PAIRS
// PAIRS: standardise.cpp: 4 variants written, 0 dropped
// RUN: %filecheck %s --input-file %t.pairs/standardise.extract-value+lambda-now.cpp --check-prefix=PAIR
// PAIR:      // placelint-reshape: extract-value then lambda-now of standardise.cpp
// PAIR-NOT:  // placelint-reshape:
// PAIR:      static pl::Tensor reshape_helper0(pl::Tensor readings, pl::Tensor column_means) {
// PAIR-NEXT:   return [&] { return readings - column_means; }(); // expect: placement-mixed-device
//
// A variant that does not compile is dropped and counted, with its error.
// RUN: rm -rf %t.drop && %reshape %S/Inputs/standardise.cpp -o %t.drop --transforms add-unrelated \
// RUN:   -- -std=c++20 %pl_includes -Werror=unused-but-set-variable | %filecheck %s --check-prefix=DROP
// DROP:      standardise.cpp: 0 variants written, 1 dropped (do not compile), 0 transforms without a site
// DROP-NEXT:   dropped: add-unrelated
// RUN: %filecheck %s --input-file %t.drop/standardise.reshape.json --check-prefix=DROP-JSON
// DROP-JSON: "error": "{{[0-9]+}}:{{[0-9]+}}: variable 'reshape_count0' set but not used"
//
// A program with no marker and no tensor has no site.
// RUN: rm -rf %t.none && %reshape %S/Inputs/no_tensors.cpp -o %t.none --transforms do-once,extract-ref \
// RUN:   -- -std=c++20 | %filecheck %s --check-prefix=NONE
// NONE: no_tensors.cpp: 0 variants written, 0 dropped (do not compile), 2 transforms without a site
//
// Bad input: a seed that does not compile, an unknown transform.
// RUN: %not %reshape %S/Inputs/broken.cpp -o %t.bad -- -std=c++20 2>&1 | %filecheck %s --check-prefix=BAD-SEED
// BAD-SEED: error: {{.*}}broken.cpp:2:21: use of undeclared identifier 'undeclared'
// RUN: %not %reshape %S/Inputs/no_tensors.cpp -o %t.bad --transforms extract-everything -- -std=c++20 2>&1 \
// RUN:   | %filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: no transform named 'extract-everything' (--list names them)
//
// Module shapes. The program's module derives from a base with its forward
// as a pure virtual, overrides it, and is called through the base; a module
// is applied through a Sequential or a shared_ptr holding it. The marker
// stays on the call's line. pl has no ModuleList or ModuleDict: those two
// find no site in a pl program.
// RUN: rm -rf %t.modules && %reshape %S/Inputs/modules.cpp -o %t.modules \
// RUN:   --transforms module-virtual,module-sequential,module-list,module-dict,module-shared-ptr,inline-helper,reorder \
// RUN:   -- -std=c++20 %pl_includes | %filecheck %s --check-prefix=MODULES
// MODULES: modules.cpp: 5 variants written, 0 dropped (do not compile), 2 transforms without a site
// RUN: %filecheck %s --input-file %t.modules/modules.reshape.json --check-prefix=MODULES-JSON
// MODULES-JSON:      "not_applicable": [
// MODULES-JSON-NEXT:   "module-list",
// MODULES-JSON-NEXT:   "module-dict"
// RUN: %filecheck %s --input-file %t.modules/modules.module-virtual.cpp --check-prefix=VIRTUAL
// VIRTUAL:      struct ReshapeModuleBase0 : pl::nn::Module {
// VIRTUAL-NEXT:   using pl::nn::Module::Module;
// VIRTUAL-NEXT:   virtual pl::Tensor forward(const pl::Tensor & input) const = 0;
// VIRTUAL-NEXT: };
// VIRTUAL:      struct ScorerImpl : ReshapeModuleBase0 {
// VIRTUAL-NEXT:   ScorerImpl() : ReshapeModuleBase0("Scorer"), layer(register_module("layer", pl::nn::Linear(4, 2))) {}
// VIRTUAL:        pl::Tensor forward(const pl::Tensor &input) const override { return layer(input); }
// VIRTUAL:        const pl::Tensor scores = static_cast<ReshapeModuleBase0 &>(*scorer).forward(batch); // expect: placement-mixed-device
// RUN: %filecheck %s --input-file %t.modules/modules.module-sequential.cpp --check-prefix=SEQUENTIAL
// SEQUENTIAL:      pl::nn::Sequential reshape_module0;
// SEQUENTIAL-NEXT: reshape_module0->push_back(scorer);
// SEQUENTIAL-NEXT: const pl::Tensor scores = reshape_module0->forward(batch); // expect: placement-mixed-device
// RUN: %filecheck %s --input-file %t.modules/modules.module-shared-ptr.cpp --check-prefix=SHARED
// SHARED:      std::shared_ptr<ScorerImpl> reshape_module0 = scorer.ptr();
// SHARED-NEXT: const pl::Tensor scores = reshape_module0->forward(batch); // expect: placement-mixed-device
//
// ModuleList and ModuleDict, on libtorch's declarations of them.
// RUN: rm -rf %t.torch && %reshape %S/Inputs/torch_modules.cpp -o %t.torch \
// RUN:   --transforms module-virtual,module-list,module-dict -- -std=c++17 | %filecheck %s --check-prefix=TORCH
// TORCH: torch_modules.cpp: 3 variants written, 0 dropped (do not compile), 0 transforms without a site
// RUN: %filecheck %s --input-file %t.torch/torch_modules.module-list.cpp --check-prefix=LIST
// LIST:      torch::nn::ModuleList reshape_module0;
// LIST-NEXT: reshape_module0->push_back(encoder.ptr());
// LIST-NEXT: return reshape_module0->at<EncoderImpl>(0).forward(tokens) + bias; // expect: placement-mixed-device
// RUN: %filecheck %s --input-file %t.torch/torch_modules.module-dict.cpp --check-prefix=DICT
// DICT:      torch::nn::ModuleDict reshape_module0;
// DICT-NEXT: reshape_module0->update(std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{{[{][{]}}"encoder", encoder.ptr(){{[}][}]}});
// DICT-NEXT: return reshape_module0->at<EncoderImpl>("encoder").forward(tokens) + bias; // expect: placement-mixed-device
// RUN: %filecheck %s --input-file %t.torch/torch_modules.module-virtual.cpp --check-prefix=TORCH-VIRTUAL
// TORCH-VIRTUAL:      struct ReshapeModuleBase0 : torch::nn::Module {
// TORCH-VIRTUAL-NEXT:   using torch::nn::Module::Module;
// TORCH-VIRTUAL-NEXT:   virtual at::Tensor forward(const at::Tensor & tokens) = 0;
// TORCH-VIRTUAL:      torch::Tensor forward(const torch::Tensor &tokens) override { return tokens; }
// TORCH-VIRTUAL:      return static_cast<ReshapeModuleBase0 &>(*encoder).forward(tokens) + bias; // expect: placement-mixed-device
//
// A helper inlined at every call: a one-return body takes the call's place on its line,
// with the arguments for the parameters (the marker stays); a body of a few
// statements comes before the statement, its parameters bound to the
// arguments and its names kept apart.
// RUN: %filecheck %s --input-file %t.modules/modules.inline-helper.cpp --check-prefix=INLINE
// INLINE: const pl::Tensor shifted = ((batch) * (2.0)) + offsets; // expect: placement-mixed-device
// Every call of the helper, not only those on a site's line.
// INLINE: (void)((offsets) * (3.0));
// RUN: rm -rf %t.helpers && %reshape %S/Inputs/helpers.cpp -o %t.helpers --transforms inline-helper,reorder \
// RUN:   -- -std=c++20 %pl_includes | %filecheck %s --check-prefix=HELPERS-SUMMARY
// HELPERS-SUMMARY: helpers.cpp: 2 variants written, 0 dropped (do not compile), 0 transforms without a site
// RUN: %filecheck %s --input-file %t.helpers/helpers.inline-helper.cpp --check-prefix=INLINE-BODY
// INLINE-BODY:      const pl::Tensor & values_inlined0 = readings;
// INLINE-BODY-NEXT: const pl::Tensor mean_inlined0 = values_inlined0.mean({0});
// INLINE-BODY-NEXT: const pl::Tensor normal = (values_inlined0 - mean_inlined0);
// A helper that returns early or calls itself keeps its calls.
// RUN: rm -rf %t.kept && %reshape %S/Inputs/not_inlined.cpp -o %t.kept --transforms inline-helper \
// RUN:   -- -std=c++20 %pl_includes | %filecheck %s --check-prefix=KEPT
// KEPT: not_inlined.cpp: 0 variants written, 0 dropped (do not compile), 1 transforms without a site
//
// Reordering: a statement swaps with its neighbour when they share nothing,
// each with its trailing comment; the call that sets the random seed keeps
// its place, and so does a statement next to one that reads its variable.
// RUN: %filecheck %s --input-file %t.modules/modules.reorder.cpp --check-prefix=REORDER-MARKED
// REORDER-MARKED:      const pl::Tensor scores = scorer(batch); // expect: placement-mixed-device
// REORDER-MARKED-NEXT: const pl::Tensor offsets = pl::ones({4}, pl::device(device));
// RUN: %filecheck %s --input-file %t.helpers/helpers.reorder.cpp --check-prefix=REORDER
// REORDER:      const pl::Tensor readings = pl::ones({8, 4});
// REORDER-NEXT: pl::manual_seed(7);
// REORDER-NEXT: const pl::Tensor normal = centred(readings);
// REORDER-NEXT: const pl::Tensor noise = pl::randn({4});
// REORDER-NEXT: const pl::Tensor total = normal.sum() + noise.sum();
