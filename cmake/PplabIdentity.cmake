# What a folder name says: the one place that takes a lab's or a known-wrong case's name
# apart. Included by the build (PplabManifest.cmake) and by scripts run with `cmake -P`,
# which have no manifest to ask.

# Splits a lab folder name: 02_dot_product -> number 02, name dot_product.
function(pplab_lab_identity folder number_var name_var)
  if(NOT folder MATCHES "^([0-9][0-9])_([a-z0-9_]+)$")
    message(FATAL_ERROR "'${folder}' is not a lab folder name (NN_name, e.g. 02_dot_product)")
  endif()
  set(${number_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${name_var} ${CMAKE_MATCH_2} PARENT_SCOPE)
endfunction()

# Splits a known-wrong case's name: 02_off_by_one -> lab number 02, case folder
# off_by_one (harness/labs/02_<name>/wrong/off_by_one).
function(pplab_case_identity case number_var case_folder_var)
  if(NOT case MATCHES "^([0-9][0-9])_([a-z0-9_]+)$")
    message(FATAL_ERROR "'${case}' is not a known-wrong case name (NN_case, e.g. 02_off_by_one)")
  endif()
  set(${number_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${case_folder_var} ${CMAKE_MATCH_2} PARENT_SCOPE)
endfunction()
