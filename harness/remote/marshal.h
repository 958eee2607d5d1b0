/// \file
/// \brief How a call to a lab's entry point crosses from the checker to the runner.
///
/// Every parameter of an entry point is a flat value: a number, an enum, a device
/// pointer (an address in the runner, which is where device memory is allocated), an
/// empty functor like Sum<int>, or a std::array. Values travel as their bytes; a
/// parameter taken by non-const reference (radix sort's temp_storage_bytes) travels
/// there and back. An entry is known on both sides by its qualified name and its
/// function type, so overloads and template instances never mix.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "wire.h"

namespace pplab::remote {

/// The name both sides know an entry by.
template <class Signature>
std::string entry_key(const char* name) {
  return std::string(name) + "|" + typeid(Signature).name();
}

/// What happened to a call in the runner: it returned, or it threw one of these.
enum class Outcome : std::uint8_t {
  returned = 0,
  invalid_argument,
  logic_error,
  cuda_error,
  runtime_error,
  other_exception,
};

template <class P>
struct Param {
  using Stored = std::decay_t<P>;
  static_assert(std::is_trivially_copyable_v<Stored>, "entry point parameters must be flat values");
  /// A parameter the callee may change, so its value travels back.
  static constexpr bool comes_back =
      std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>;
};

// --- the checker's side ------------------------------------------------------------

/// Sends a `call` request and returns the reply's body after the outcome, rethrowing
/// what the lab's code threw (client.cpp).
std::string call_entry(const std::string& key, const std::string& arguments, const char* name);

template <class Signature>
struct Call;

/// Stands in for an entry point in the checker: `Call<void(float, float*)>{"ns::f"}(a, p)`.
template <class R, class... P>
struct Call<R(P...)> {
  const char* name;

  R operator()(P... args) const {
    Writer arguments;
    (arguments.put(static_cast<const typename Param<P>::Stored&>(args)), ...);
    const std::string reply = call_entry(entry_key<R(P...)>(name), arguments.bytes(), name);
    Reader results(reply);
    if constexpr (std::is_void_v<R>) {
      (take_back<P>(results, args), ...);
    } else {
      static_assert(std::is_trivially_copyable_v<R>, "entry point results must be flat values");
      const R result = results.get<R>();
      (take_back<P>(results, args), ...);
      return result;
    }
  }

 private:
  template <class Q, class A>
  static void take_back(Reader& results, A& arg) {
    if constexpr (Param<Q>::comes_back) arg = results.get<typename Param<Q>::Stored>();
  }
};

// --- the runner's side -------------------------------------------------------------

/// One entry point the runner can call: decodes the arguments, calls, encodes the result.
struct Entry {
  std::string key;
  std::function<std::string(Reader&)> invoke;
};

template <class Signature>
struct EntryOf;

template <class R, class... P>
struct EntryOf<R(P...)> {
  static Entry make(const char* name, R (*function)(P...)) {
    return {entry_key<R(P...)>(name), [function](Reader& arguments) {
              // Braced initialisation reads the arguments in order.
              std::tuple<typename Param<P>::Stored...> values{arguments.get<typename Param<P>::Stored>()...};
              Writer results;
              if constexpr (std::is_void_v<R>) {
                std::apply(function, values);
              } else {
                results.put(std::apply(function, values));
              }
              give_back(results, values, std::index_sequence_for<P...>{});
              return results.bytes();
            }};
  }

 private:
  template <class Tuple, std::size_t... I>
  static void give_back(Writer& results, const Tuple& values, std::index_sequence<I...>) {
    (put_if_back<P>(results, std::get<I>(values)), ...);
  }
  template <class Q, class V>
  static void put_if_back(Writer& results, const V& value) {
    if constexpr (Param<Q>::comes_back) results.put(value);
  }
};

/// `entry<void(float, float*)>("ns::f", &ns::f)`: the explicit type picks the overload.
template <class Signature>
Entry entry(const char* name, Signature* function) {
  return EntryOf<Signature>::make(name, function);
}

}  // namespace pplab::remote
