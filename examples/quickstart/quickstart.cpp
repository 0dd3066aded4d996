// quickstart DEVICE (cpu, sim:0, cuda:0, ...): the classic placement mistake
// (the model moved to a device, its input left on the cpu), the error the
// runtime raises for it, and the fixed program.
#include <cstdio>
#include <iostream>

#include <pl/pl.h>

namespace {

pl::nn::Sequential make_model() {
  return pl::nn::Sequential(pl::nn::Linear(4, 8), pl::nn::ReLU(), pl::nn::Linear(8, 3));
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DEVICE   (cpu, sim:0, sim:1, cuda:0, ...)\n", argv[0]);
    return 2;
  }
  pl::Device device(pl::kCPU);
  try {
    device = pl::Device(argv[1]);
  } catch (const pl::DeviceError &error) {
    std::fprintf(stderr, "quickstart: %s\n", error.what());
    return 2;
  }
  // On the cpu the mistake cannot happen (everything is on the cpu), so it
  // is shown with sim:0, the simulated accelerator.
  const pl::Device model_device = device.is_cpu() ? pl::Device("sim:0") : device;

  try {
    pl::manual_seed(0);
    auto model = make_model();
    const pl::Tensor input = pl::randn({2, 4});

    std::cout << "1. the mistake: the model is moved to " << model_device << ", the input stays on "
              << input.device() << "\n";
    model->to(model_device);
    try {
      const pl::Tensor output = model(input);
      std::cout << "   unexpectedly ran: " << output.sizes() << "\n";
      return 1;
    } catch (const pl::DeviceMismatchError &error) {
      std::cout << "   caught pl::DeviceMismatchError:\n   " << error.what() << "\n";
    }

    std::cout << "2. fixed: the model and its input both on " << device
              << ", the result brought back to the cpu\n";
    model->to(device);
    const pl::Tensor output = model(input.to(device)).cpu();
    std::cout << "   output sizes " << output.sizes() << ", predicted class per row:\n"
              << output.argmax(1) << "\n";
    return 0;
  } catch (const pl::Error &error) {
    // For example cuda:0 on a machine without a GPU (placement-unguarded-cuda).
    std::cout.flush();
    std::fprintf(stderr, "quickstart: %s\n", error.what());
    return 2;
  }
}
