# The lab manifest: build/<preset>/labs.json, the one owner of what a lab is.
#
# A lab's identity (folder, number, name), its files and the targets built from them are
# decided here, once, at configure time. `pplab` (test, bench, grade, trace, release,
# Slurm) reads them from labs.json and never rebuilds a path or a target name from a
# folder name. Layout of the file:
#
#   { "schema": 1, "backend": "sim", "source_dir": "...", "build_dir": "...",
#     "sim_oracle": { "target": "pplab_sim_oracle", "build_dir": "..." } | null,
#     "configure_settings": ["-DCMAKE_PREFIX_PATH=...", ...],   (where packages were found)
#     "labs": [ { "folder": "02_dot_product", "number": "02", "name": "dot_product",
#                 "label": "lab02", "handout": ..., "contract": ..., "test_source": ...,
#                 "student_file": ..., "reference_file": ..., "bench_source": ...,
#                 "sanitizer_large_n": 65536,                (PPLAB_LARGE_N under compute-sanitizer)
#                 "trace_source": ...,                       (null when there is none)
#                 "student":   { "checks": {"target", "file"}, "bench": {...} | null } | null,
#                 "reference": { ... } | null,
#                 "trace":     { "target", "file", "tree" } | null } ] }
#
# "student" is null when this build does not compile the student's file (PPLAB_SOURCES,
# or a submission without that lab); "bench" is null on the sim, where nothing is timed.

include(${CMAKE_CURRENT_LIST_DIR}/PplabIdentity.cmake)  # pplab_lab_identity, pplab_case_identity

# The folder and name of lab <number> (e.g. 02) among the labs added so far; empty
# when this build has no such lab (PPLAB_LABS).
function(pplab_lab_with_number number folder_var name_var)
  set(${folder_var} "" PARENT_SCOPE)
  set(${name_var} "" PARENT_SCOPE)
  get_property(folders GLOBAL PROPERTY PPLAB_MANIFEST_FOLDERS)
  foreach(folder IN LISTS folders)
    get_property(lab GLOBAL PROPERTY PPLAB_MANIFEST_LAB_${folder})
    string(JSON lab_number ERROR_VARIABLE not_a_lab GET "${lab}" number)
    if(NOT not_a_lab AND lab_number STREQUAL number)
      string(JSON name GET "${lab}" name)
      set(${folder_var} ${folder} PARENT_SCOPE)
      set(${name_var} ${name} PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# A JSON string literal for a path or name.
function(pplab_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# Sets <keys> (a path inside the lab's object, e.g. "student;checks") to a JSON value.
function(pplab_manifest_set folder keys value)
  get_property(lab GLOBAL PROPERTY PPLAB_MANIFEST_LAB_${folder})
  if(NOT lab)
    set(lab "{}")
    set_property(GLOBAL APPEND PROPERTY PPLAB_MANIFEST_FOLDERS ${folder})
  endif()
  # Create each missing parent object on the way down.
  set(path "")
  list(LENGTH keys depth)
  math(EXPR last "${depth} - 1")
  foreach(i RANGE 0 ${last})
    list(GET keys ${i} key)
    if(i LESS last)
      string(JSON kind ERROR_VARIABLE missing TYPE "${lab}" ${path} ${key})
      if(missing OR NOT kind STREQUAL "OBJECT")
        string(JSON lab SET "${lab}" ${path} ${key} "{}")
      endif()
      list(APPEND path ${key})
    endif()
  endforeach()
  string(JSON lab SET "${lab}" ${keys} "${value}")
  set_property(GLOBAL PROPERTY PPLAB_MANIFEST_LAB_${folder} "${lab}")
endfunction()

# Sets <keys> to a path or name (a JSON string), or to null when <value> is empty.
function(pplab_manifest_set_text folder keys value)
  if(value STREQUAL "")
    pplab_manifest_set(${folder} "${keys}" null)
  else()
    pplab_json_string(json "${value}")
    pplab_manifest_set(${folder} "${keys}" "${json}")
  endif()
endfunction()

# Records a built program: { "target": <target>, "file": <its path once built> }.
function(pplab_manifest_set_target folder keys target)
  pplab_json_string(name "${target}")
  pplab_json_string(file "$<TARGET_FILE:${target}>")
  pplab_manifest_set(${folder} "${keys}" "{\"target\": ${name}, \"file\": ${file}}")
endfunction()

# The labs recorded so far, by folder name, in order.
function(pplab_manifest_lab_folders var)
  get_property(folders GLOBAL PROPERTY PPLAB_MANIFEST_FOLDERS)
  list(SORT folders)
  set(${var} ${folders} PARENT_SCOPE)
endfunction()

# The value at <keys> in lab <folder>'s entry so far (e.g. "trace;target": the lab's trace
# program), or empty when the lab or the key is not there.
function(pplab_manifest_get folder keys var)
  get_property(lab GLOBAL PROPERTY PPLAB_MANIFEST_LAB_${folder})
  set(value "")
  if(lab)
    string(JSON value ERROR_VARIABLE missing GET "${lab}" ${keys})
    if(missing OR value STREQUAL "null")
      set(value "")
    endif()
  endif()
  set(${var} "${value}" PARENT_SCOPE)
endfunction()

# Writes build/<preset>/labs.json; called once, after every lab and trace is added.
function(pplab_write_manifest)
  get_property(folders GLOBAL PROPERTY PPLAB_MANIFEST_FOLDERS)
  list(SORT folders)
  pplab_json_string(backend "${PPLAB_BACKEND}")
  pplab_json_string(source_dir "${PROJECT_SOURCE_DIR}")
  pplab_json_string(build_dir "${PROJECT_BINARY_DIR}")
  set(oracle null)
  if(PPLAB_SIM_ORACLE_DIR)
    pplab_json_string(oracle_dir "${PPLAB_SIM_ORACLE_DIR}")
    set(oracle "{\"target\": \"pplab_sim_oracle\", \"build_dir\": ${oracle_dir}}")
  endif()
  # Where this build found its packages: a per-student tree configured by `pplab grade
  # --submissions` must find them in the same places.
  set(inherited "[]")
  set(index 0)
  foreach(variable CMAKE_PREFIX_PATH Boost_DIR doctest_DIR CLI11_DIR nlohmann_json_DIR)
    if(DEFINED CACHE{${variable}} OR DEFINED ${variable})
      if(NOT "${${variable}}" STREQUAL "" AND NOT "${${variable}}" MATCHES "-NOTFOUND$")
        pplab_json_string(setting "-D${variable}=${${variable}}")
        string(JSON inherited SET "${inherited}" ${index} "${setting}")
        math(EXPR index "${index} + 1")
      endif()
    endif()
  endforeach()
  set(manifest "{\"schema\": 1, \"backend\": ${backend}, \"source_dir\": ${source_dir}, \"build_dir\": ${build_dir}, \"sim_oracle\": ${oracle}, \"configure_settings\": ${inherited}, \"labs\": []}")
  set(index 0)
  foreach(folder IN LISTS folders)
    get_property(lab GLOBAL PROPERTY PPLAB_MANIFEST_LAB_${folder})
    string(JSON has_number ERROR_VARIABLE not_a_lab GET "${lab}" number)
    if(not_a_lab)
      continue()   # a trace whose lab is not part of this build
    endif()
    foreach(optional student reference trace)
      string(JSON kind ERROR_VARIABLE missing TYPE "${lab}" ${optional})
      if(missing)
        string(JSON lab SET "${lab}" ${optional} null)
      endif()
    endforeach()
    string(JSON manifest SET "${manifest}" labs ${index} "${lab}")
    math(EXPR index "${index} + 1")
  endforeach()
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/labs.json CONTENT "${manifest}\n")
endfunction()
