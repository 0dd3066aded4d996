// OrderedDict: insertion-ordered map with key()/value() items, as returned
// by libtorch's Module::named_parameters().
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pl/error.h>

namespace pl {

template <class Key, class Value> class OrderedDict {
public:
  class Item {
  public:
    Item(Key key, Value value) : key_(std::move(key)), value_(std::move(value)) {}
    const Key &key() const noexcept { return key_; }
    Value &value() noexcept { return value_; }
    const Value &value() const noexcept { return value_; }
    Value &operator*() noexcept { return value_; }
    Value *operator->() noexcept { return &value_; }

  private:
    Key key_;
    Value value_;
  };

  using iterator = typename std::vector<Item>::iterator;
  using const_iterator = typename std::vector<Item>::const_iterator;

  // Throws pl::Error when the key is already there. The reference stays
  // valid until the next insertion.
  Value &insert(Key key, Value value) {
    PL_CHECK(index_.find(key) == index_.end(), Error, "key '", key, "' is already defined");
    index_.emplace(key, items_.size());
    items_.emplace_back(std::move(key), std::move(value));
    return items_.back().value();
  }

  Value *find(const Key &key) noexcept {
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value *find(const Key &key) const noexcept {
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  bool contains(const Key &key) const noexcept { return index_.count(key) != 0; }

  // Throws pl::IndexError naming the key when it is not there.
  Value &operator[](const Key &key) {
    Value *value = find(key);
    PL_CHECK(value != nullptr, IndexError, "key '", key, "' is not defined");
    return *value;
  }
  const Value &operator[](const Key &key) const {
    const Value *value = find(key);
    PL_CHECK(value != nullptr, IndexError, "key '", key, "' is not defined");
    return *value;
  }

  std::size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  const std::vector<Item> &items() const noexcept { return items_; }

  std::vector<Key> keys() const {
    std::vector<Key> keys;
    keys.reserve(items_.size());
    for (const Item &item : items_)
      keys.push_back(item.key());
    return keys;
  }
  std::vector<Value> values() const {
    std::vector<Value> values;
    values.reserve(items_.size());
    for (const Item &item : items_)
      values.push_back(item.value());
    return values;
  }

private:
  std::vector<Item> items_;
  std::unordered_map<Key, std::size_t> index_;
};

} // namespace pl
