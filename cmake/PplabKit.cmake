# The grading kit: what `pplab grade --submissions` builds once in the workbook's tree
# for a whole class, so that each student's build compiles only that student's files.
#
# A lab's checker and benchmark hold no student code (the lab's code runs in its runner),
# so every student is judged and timed by the workbook's own (target pplab_grading_kit
# builds them). A student's build (harness/student_build) makes only the runners, from
# the student's files, linked with the libraries exported here:
#   <build>/pplab-kit/targets.cmake   the runner's library and, on the emulator, the
#                                     emulator runtime and its rewriter (imported targets)
#   <build>/pplab-kit/settings.cmake  how this build compiles: backend, compilers, build
#                                     type, GPU architectures, emulated device, packages
#   <build>/pplab-kit/inputs.json     what a student's build reads of this build: the kit
#                                     folder, the libraries, the emulator's header stubs;
#                                     the grader's build sandbox shows these and hides
#                                     the rest of the build (the reference's programs)

if(NOT TARGET pplab_grading_kit)
  add_custom_target(pplab_grading_kit)
endif()

function(pplab_write_grading_kit)
  set(kit ${PROJECT_BINARY_DIR}/pplab-kit)
  set(libraries pplab_runner_main)
  if(PPLAB_BACKEND STREQUAL "sim")
    list(APPEND libraries pplab_sim pplab-sim-rewrite)
    # The emulator's precompiled header (harness/sim/cmake/PplabSimSources.cmake): a
    # student's rewritten files use this build's, made once for the class.
    if(TARGET pplab_sim_precompiled_header)
      add_dependencies(pplab_grading_kit pplab_sim_precompiled_header)
      set(shown_folders ${PPLAB_SIM_PCH_DIR})
    endif()
  endif()
  export(TARGETS ${libraries} FILE ${kit}/targets.cmake)
  add_dependencies(pplab_grading_kit ${libraries})
  if(TARGET pplab_sim_oracle)
    add_dependencies(pplab_grading_kit pplab_sim_oracle)  # the emulator's kit, for the sim oracle
  endif()
  set(settings "# Written by the workbook's build (cmake/PplabKit.cmake); read by harness/student_build.\n")
  foreach(variable PPLAB_BACKEND CMAKE_BUILD_TYPE CMAKE_CXX_COMPILER CMAKE_CUDA_COMPILER
                   CMAKE_CUDA_HOST_COMPILER CMAKE_CUDA_ARCHITECTURES PPLAB_SIM_DEVICE CMAKE_PREFIX_PATH
                   Boost_DIR CUDAToolkit_ROOT PPLAB_SIM_PCH_DIR)
    if(DEFINED ${variable} AND NOT "${${variable}}" MATCHES "-NOTFOUND$")
      string(APPEND settings "set(${variable} \"${${variable}}\")\n")
    endif()
  endforeach()
  file(CONFIGURE OUTPUT ${kit}/settings.cmake CONTENT "${settings}")

  pplab_json_string(kit_json "${kit}")
  set(inputs "${kit_json}")
  foreach(library IN LISTS libraries)
    string(APPEND inputs ", \"$<TARGET_FILE:${library}>\"")
  endforeach()
  foreach(folder IN LISTS shown_folders)
    pplab_json_string(folder_json "${folder}")
    string(APPEND inputs ", ${folder_json}")
  endforeach()
  # Include folders the build made (the emulator's stubs of toolkit headers).
  foreach(library IN LISTS libraries)
    get_target_property(folders ${library} INTERFACE_INCLUDE_DIRECTORIES)
    foreach(folder IN LISTS folders)
      if(folder MATCHES "^${PROJECT_BINARY_DIR}/")
        pplab_json_string(folder_json "${folder}")
        string(APPEND inputs ", ${folder_json}")
      endif()
    endforeach()
  endforeach()
  file(GENERATE OUTPUT ${kit}/inputs.json CONTENT "[${inputs}]\n")
endfunction()
