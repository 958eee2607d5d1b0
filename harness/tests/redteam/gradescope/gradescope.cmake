# Red team, Gradescope: harness/grading/gradescope/run_autograder run on an upload, with
# its /autograder folders moved under WORK.
# - Where bubblewrap cannot start (a stand-in bwrap that fails as Docker's default seccomp
#   profile makes it fail), the upload is the reference, which would earn every point:
#   nothing may be graded, every test scores 0, and the output says why and what the
#   container needs. Grading without the sandbox would run the student's code as root,
#   with the network, beside the solutions.
# - Where bubblewrap works (-DSANDBOX=ON), the upload's lab 01 file is a symbolic link to
#   the reference (Gradescope unpacks links, and run_autograder's copy keeps them): it
#   earns 0 with the reason, and its lab 02, the reference, every point.
# -DPPLAB -DROOT -DWORK [-DSANDBOX=ON]
include(${ROOT}/harness/grading/tests/common.cmake)
get_filename_component(WORK "${WORK}" ABSOLUTE)
set(script ${ROOT}/harness/grading/gradescope/run_autograder)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tmp)

# run_autograder(<name> <path prefix>): runs it on WORK/<name>/autograder/submission.
function(run_autograder name path_prefix)
  set(root ${WORK}/${name}/autograder)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env "PATH=${path_prefix}$ENV{PATH}" TMPDIR=${WORK}/tmp PPLAB_LABS=01,02
            PPLAB_AUTOGRADER_ROOT=${root} PPLAB_AUTOGRADER_WORKBOOK=${ROOT} PPLAB_AUTOGRADER_PPLAB=${PPLAB}
            PPLAB_AUTOGRADER_WORK=${WORK}/${name}/tmp
            bash ${script}
    RESULT_VARIABLE result OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  message("${name}: run_autograder exited ${result}\n${stdout}${stderr}")
  expect("${name}: run_autograder writes results.json" EXISTS ${root}/results/results.json)
  file(READ ${root}/results/results.json results)
  set(results "${results}" PARENT_SCOPE)
endfunction()

# No sandbox: a bwrap that fails the way it does under Docker's default seccomp profile.
set(fake ${WORK}/no_sandbox/bin)
file(WRITE ${fake}/bwrap "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n")
file(CHMOD ${fake}/bwrap PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${WORK}/no_sandbox/autograder/submission/01_saxpy)
run_autograder(no_sandbox "${fake}:")
string(JSON score GET "${results}" score)
expect("no sandbox: the score is 0 (got ${score}): nothing is graded without the sandbox" score EQUAL 0)
string(JSON output GET "${results}" output)
expect("no sandbox: the output says the sandbox could not start and what the container needs:\n${output}"
       output MATCHES "could not start its sandbox" AND output MATCHES "seccomp" AND output MATCHES "user namespaces")
string(JSON count LENGTH "${results}" tests)
expect("no sandbox: a test for each lab of the assignment (got ${count})" count EQUAL 2)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON test_score GET "${results}" tests ${i} score)
  string(JSON test_name GET "${results}" tests ${i} name)
  expect("no sandbox: ${test_name} scores 0 (got ${test_score})" test_score EQUAL 0)
endforeach()
if(EXISTS ${WORK}/no_sandbox/tmp/pplab-grades)
  message(FATAL_ERROR "no sandbox: pplab ran (it wrote ${WORK}/no_sandbox/tmp/pplab-grades)")
endif()
message("ok: without a sandbox nothing is graded, every test scores 0, and the output says why")

if(SANDBOX)
  set(submission ${WORK}/sandbox/autograder/submission)
  file(MAKE_DIRECTORY ${submission}/01_saxpy)
  file(CREATE_LINK ${ROOT}/solutions/01_saxpy/saxpy.cu ${submission}/01_saxpy/saxpy.cu SYMBOLIC)
  file(COPY ${ROOT}/solutions/02_dot_product/dot_product.cu DESTINATION ${submission}/02_dot_product)
  run_autograder(sandbox "")
  string(JSON lab01 GET "${results}" extra_data labs 01_saxpy score)
  string(JSON lab02 GET "${results}" extra_data labs 02_dot_product score)
  string(JSON lab02_max GET "${results}" extra_data labs 02_dot_product max_score)
  string(JSON output GET "${results}" output)
  expect("sandbox: the linked lab 01 earns 0 (got ${lab01})" lab01 EQUAL 0)
  expect("sandbox: the output says why:\n${output}" output MATCHES "01_saxpy/saxpy.cu is a symbolic link")
  expect("sandbox: lab 02, the reference, earns every point (got ${lab02} of ${lab02_max})"
         lab02 EQUAL lab02_max AND lab02_max GREATER 0)
  message("ok: with a sandbox, a linked file earns 0 with its reason and the honest lab every point")
endif()
message("ok: ${CMAKE_CURRENT_LIST_FILE}")
