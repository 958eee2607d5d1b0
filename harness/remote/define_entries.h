/// \file
/// \brief Turns a lab's list of entry points (harness/labs/NN_name/entries.h) into the
/// checker's stand-ins or the runner's table.
///
/// A lab's list is one macro, `PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)`, that names
/// each entry point once:
///   FUNCTION(result, namespace, name, (parameters), (argument names))
///   TEMPLATE(result, namespace, name, (template parameters), (parameters), (argument names))
///   INSTANCE(result, namespace, name, (template arguments), (parameter types))
/// The checker (PPLAB_REMOTE_CHECKER) gets a definition of every function that forwards
/// the call to the runner: that is all of the lab the checker ever links. The runner
/// (PPLAB_REMOTE_RUNNER) gets lab_entries(), the table of the real functions.
#pragma once
#include <vector>

#include "marshal.h"

#define PPLAB_REMOTE_UNPAREN(...) __VA_ARGS__

#if defined(PPLAB_REMOTE_CHECKER)

#define PPLAB_CHECKER_FUNCTION(R, ns, name, params, args)                       \
  namespace ns {                                                                \
  R name params { return ::pplab::remote::Call<R params>{#ns "::" #name} args; } \
  }
#define PPLAB_CHECKER_TEMPLATE(R, ns, name, tparams, params, args)              \
  namespace ns {                                                                \
  template <PPLAB_REMOTE_UNPAREN tparams>                                       \
  R name params { return ::pplab::remote::Call<R params>{#ns "::" #name} args; } \
  }
#define PPLAB_CHECKER_INSTANCE(R, ns, name, targs, types) \
  namespace ns {                                         \
  template R name<PPLAB_REMOTE_UNPAREN targs> types;     \
  }
#define PPLAB_DEFINE_LAB_ENTRIES() \
  PPLAB_LAB_ENTRIES(PPLAB_CHECKER_FUNCTION, PPLAB_CHECKER_TEMPLATE, PPLAB_CHECKER_INSTANCE)

#elif defined(PPLAB_REMOTE_RUNNER)

#define PPLAB_RUNNER_FUNCTION(R, ns, name, params, args)                          \
  {                                                                                \
    using namespace ns;                                                            \
    entries.push_back(::pplab::remote::entry<R params>(#ns "::" #name, &ns::name)); \
  }
#define PPLAB_RUNNER_TEMPLATE(R, ns, name, tparams, params, args)
#define PPLAB_RUNNER_INSTANCE(R, ns, name, targs, types)                                         \
  {                                                                                              \
    using namespace ns;                                                                          \
    entries.push_back(::pplab::remote::entry<R types>(#ns "::" #name, &name<PPLAB_REMOTE_UNPAREN targs>)); \
  }
#define PPLAB_DEFINE_LAB_ENTRIES()                                                         \
  std::vector<::pplab::remote::Entry> pplab::remote::lab_entries() {                       \
    std::vector<::pplab::remote::Entry> entries;                                           \
    PPLAB_LAB_ENTRIES(PPLAB_RUNNER_FUNCTION, PPLAB_RUNNER_TEMPLATE, PPLAB_RUNNER_INSTANCE) \
    return entries;                                                                        \
  }
namespace pplab::remote {
/// The lab's entry points, defined by the lab's entries.h.
std::vector<Entry> lab_entries();
}  // namespace pplab::remote

#else
#error "compile with PPLAB_REMOTE_CHECKER or PPLAB_REMOTE_RUNNER"
#endif
