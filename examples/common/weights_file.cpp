#include "weights_file.h"

#include <array>
#include <bit>
#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace examples {
namespace {

constexpr std::array<char, 8> kMagic = {'P', 'L', 'W', 'E', 'I', 'G', 'H', 'T'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint8_t kFloat32Code = 1;
// Sanity bounds: a corrupt header must give an error, not a huge allocation.
constexpr std::uint32_t kMaxTensors = 1u << 16;
constexpr std::uint32_t kMaxNameLength = 4096;
constexpr std::uint32_t kMaxDims = 8;
constexpr std::int64_t kMaxElements = std::int64_t{1} << 32;

template <class... Parts> [[noreturn]] void fail(const std::string &path, const Parts &...parts) {
  std::ostringstream message;
  message << path << ": ";
  (message << ... << parts);
  throw WeightsFileError(message.str());
}

// Fixed-width little-endian integers, whatever the host's byte order.
template <class Unsigned> void put(std::ostream &out, Unsigned value) {
  std::array<char, sizeof(Unsigned)> bytes;
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
    bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
  out.write(bytes.data(), bytes.size());
}

class Reader {
public:
  Reader(std::istream &in, const std::string &path) : in_(in), path_(path) {}

  template <class Unsigned> Unsigned get(const char *what) {
    std::array<unsigned char, sizeof(Unsigned)> bytes;
    read_bytes(reinterpret_cast<char *>(bytes.data()), bytes.size(), what);
    Unsigned value = 0;
    for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
      value |= static_cast<Unsigned>(bytes[i]) << (8 * i);
    return value;
  }

  void read_bytes(char *data, std::size_t count, const char *what) {
    if (!in_.read(data, static_cast<std::streamsize>(count)))
      fail(path_, "truncated: the file ends inside ", what);
  }

  bool at_end() { return in_.peek() == std::char_traits<char>::eof(); }

private:
  std::istream &in_;
  const std::string &path_;
};

NamedTensor read_tensor(Reader &reader, const std::string &path, std::uint32_t index) {
  const auto name_length = reader.get<std::uint32_t>("a tensor name length");
  if (name_length == 0 || name_length > kMaxNameLength)
    fail(path, "tensor ", index, ": name length ", name_length, " is not in [1, ",
         kMaxNameLength, "]");
  std::string name(name_length, '\0');
  reader.read_bytes(name.data(), name.size(), "a tensor name");
  const auto dtype = reader.get<std::uint8_t>("a dtype code");
  if (dtype != kFloat32Code)
    fail(path, "tensor '", name, "': unknown dtype code ", int{dtype}, " (version ", kVersion,
         " has only 1 = float32)");
  const auto dims = reader.get<std::uint32_t>("a dimension count");
  if (dims > kMaxDims)
    fail(path, "tensor '", name, "': ", dims, " dimensions (at most ", kMaxDims, ")");
  std::vector<std::int64_t> sizes(dims);
  std::int64_t elements = 1;
  for (std::int64_t &size : sizes) {
    size = static_cast<std::int64_t>(reader.get<std::uint64_t>("the sizes"));
    if (size < 0 || (size > 0 && elements > kMaxElements / size))
      fail(path, "tensor '", name, "': sizes give more than ", kMaxElements, " elements");
    elements *= size;
  }
  pl::Tensor tensor = pl::empty(sizes, pl::kFloat);
  float *values = tensor.data_ptr<float>();
  for (std::int64_t i = 0; i < elements; ++i)
    values[i] = std::bit_cast<float>(reader.get<std::uint32_t>("the data"));
  return NamedTensor{std::move(name), std::move(tensor)};
}

} // namespace

void save_weights(const std::string &path, const std::vector<NamedTensor> &tensors) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    fail(path, "cannot open for writing");
  out.write(kMagic.data(), kMagic.size());
  put<std::uint32_t>(out, kVersion);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(tensors.size()));
  for (const NamedTensor &entry : tensors) {
    if (entry.tensor.dtype() != pl::kFloat)
      fail(path, "tensor '", entry.name, "' is ", entry.tensor.dtype(), ", only float32 is stored");
    const pl::Tensor host = entry.tensor.cpu().contiguous();
    put<std::uint32_t>(out, static_cast<std::uint32_t>(entry.name.size()));
    out.write(entry.name.data(), static_cast<std::streamsize>(entry.name.size()));
    put<std::uint8_t>(out, kFloat32Code);
    put<std::uint32_t>(out, static_cast<std::uint32_t>(host.dim()));
    for (const std::int64_t size : host.sizes())
      put<std::uint64_t>(out, static_cast<std::uint64_t>(size));
    const float *values = host.data_ptr<float>();
    for (std::int64_t i = 0; i < host.numel(); ++i)
      put<std::uint32_t>(out, std::bit_cast<std::uint32_t>(values[i]));
  }
  if (!out.flush())
    fail(path, "write failed");
}

std::vector<NamedTensor> load_weights(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path, "cannot open for reading");
  Reader reader(in, path);
  std::array<char, kMagic.size()> magic;
  reader.read_bytes(magic.data(), magic.size(), "the magic number");
  if (magic != kMagic)
    fail(path, "not a placelint weights file (bad magic number)");
  const auto version = reader.get<std::uint32_t>("the version");
  if (version != kVersion)
    fail(path, "format version ", version, " is not supported (this program reads version ",
         kVersion, ")");
  const auto count = reader.get<std::uint32_t>("the tensor count");
  if (count > kMaxTensors)
    fail(path, count, " tensors (at most ", kMaxTensors, ")");
  std::vector<NamedTensor> tensors;
  for (std::uint32_t i = 0; i < count; ++i)
    tensors.push_back(read_tensor(reader, path, i));
  if (!reader.at_end())
    fail(path, "unexpected bytes after the last tensor");
  return tensors;
}

std::vector<NamedTensor> parameters_of(const pl::nn::Module &module) {
  std::vector<NamedTensor> tensors;
  for (const auto &item : module.named_parameters())
    tensors.push_back(NamedTensor{item.key(), item.value()});
  return tensors;
}

void load_parameters(pl::nn::Module &module, const std::vector<NamedTensor> &tensors,
                     const std::string &origin) {
  // Loading writes the parameters (leaves that require grad) in place.
  const pl::NoGradGuard no_grad;
  auto parameters = module.named_parameters();
  std::set<std::string> loaded;
  for (const NamedTensor &entry : tensors) {
    const pl::Tensor *parameter = parameters.find(entry.name);
    if (parameter == nullptr)
      fail(origin, "tensor '", entry.name, "' is not a parameter of ", module.name());
    if (!loaded.insert(entry.name).second)
      fail(origin, "tensor '", entry.name, "' appears twice");
    if (parameter->sizes() != entry.tensor.sizes())
      fail(origin, "tensor '", entry.name, "' has sizes ", entry.tensor.sizes(), " but ",
           module.name(), " expects ", parameter->sizes());
    parameter->copy_(entry.tensor);
  }
  for (const auto &item : parameters)
    if (loaded.count(item.key()) == 0)
      fail(origin, "parameter '", item.key(), "' of ", module.name(), " is missing");
}

} // namespace examples
