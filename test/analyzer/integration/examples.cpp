// The example programs under examples/, analysed with the real runtime
// headers. quickstart shows the classic mistake on purpose; the training and
// inference programs (and the sources they share) are device-agnostic and
// must be clean: no finding in them or in examples/common.
//
// RUN: %check_placement -check-file=%s %examples/quickstart/quickstart.cpp 'placement-*' %t -- -- %pl_includes
// RUN: %check_placement -check-file=%s -check-suffix=CLEAN --no-fix %examples/training/training.cpp \
// RUN:   'placement-*' %t -- -header-filter=examples/common -- %pl_includes -I %examples/common
// RUN: %check_placement -check-file=%s -check-suffix=CLEAN --no-fix %examples/inference/inference.cpp \
// RUN:   'placement-*' %t -- -header-filter=examples/common -- %pl_includes -I %examples/common
// RUN: %check_placement -check-file=%s -check-suffix=CLEAN %examples/common/synthetic_task.cpp \
// RUN:   'placement-*' %t -- -- %pl_includes -I %examples/common
// RUN: %check_placement -check-file=%s -check-suffix=CLEAN %examples/common/weights_file.cpp \
// RUN:   'placement-*' %t -- -- %pl_includes -I %examples/common
//
// The model is moved to a device variable (sim:0 on a cpu-only run), the
// input stays on the cpu (quickstart.cpp, "1. the mistake"):
// CHECK-MESSAGES: :42:33: warning: 'model' may be on the device in 'model_device' but 'input' is on cpu in call to 'forward' [placement-mixed-device]
// CHECK-MESSAGES: :40:12: note: 'model' was moved to the device in 'model_device' here
// CHECK-MESSAGES: :36:30: note: 'input' was created on cpu here
