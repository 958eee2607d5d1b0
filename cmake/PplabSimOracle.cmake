# The sim oracle: a GPU build that grades (PPLAB_SIM_ORACLE=ON) also builds the student
# checks for the CPU emulator, in <build>/sim-oracle, from the same student files. The
# grader then runs each check on both and a check passes only if it passes on both: the
# emulator names the races, missing barriers and out-of-bounds accesses a GPU run hides,
# and the GPU the faults only real hardware shows. Needs what the sim needs (g++ and
# libboost-context-dev) beside the CUDA toolkit.
#
# The sub-build's manifest (sim-oracle/labs.json) lists its binaries; this build's
# manifest points to it ("sim_oracle").
option(PPLAB_SIM_ORACLE "GPU builds: also build the student checks for the CPU emulator, so grading judges both" OFF)

function(pplab_add_sim_oracle)
  if(NOT PPLAB_BACKEND STREQUAL "gpu" OR NOT PPLAB_SIM_ORACLE OR NOT PPLAB_BUILD_LABS
     OR NOT "labs" IN_LIST PPLAB_SOURCES)
    set(PPLAB_SIM_ORACLE_DIR "" PARENT_SCOPE)
    return()
  endif()
  include(ExternalProject)
  set(dir ${PROJECT_BINARY_DIR}/sim-oracle)
  set(found_in "")  # where this build was told its packages are
  foreach(variable Boost_DIR doctest_DIR CLI11_DIR nlohmann_json_DIR)
    if(${variable} AND NOT ${variable} MATCHES "-NOTFOUND$")
      list(APPEND found_in -D${variable}:PATH=${${variable}})
    endif()
  endforeach()
  ExternalProject_Add(pplab_sim_oracle
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${dir}
    CMAKE_GENERATOR ${CMAKE_GENERATOR}
    CMAKE_CACHE_ARGS
      -DCMAKE_BUILD_TYPE:STRING=Release
      -DCMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}
      -DCMAKE_PREFIX_PATH:STRING=${CMAKE_PREFIX_PATH}
      -DPPLAB_BACKEND:STRING=sim
      -DPPLAB_SOURCES:STRING=labs
      -DPPLAB_LABS:STRING=${PPLAB_LABS}
      -DPPLAB_STUDENT_DIR:PATH=${PPLAB_STUDENT_DIR}
      -DPPLAB_CHECK_SKELETONS:BOOL=OFF
      -DPPLAB_BUILD_DOCS:BOOL=OFF
      ${found_in}
    # The student checks and what a student's emulator build links (its grading kit); a
    # lab that does not build for the emulator leaves the others.
    BUILD_COMMAND ${CMAKE_COMMAND} --build ${dir} --target pplab_grading_kit -- -k 0
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    EXCLUDE_FROM_ALL OFF)
  set(PPLAB_SIM_ORACLE_DIR ${dir} PARENT_SCOPE)
endfunction()
