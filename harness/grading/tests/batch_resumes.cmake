# A class batch stopped part-way, as a time limit stops it (SIGTERM), leaves the finished
# students' reports and a gradebook and summary in which the rest are "not graded"; the
# same command run again grades only the rest, with the first run's hidden seed, and
# leaves nothing of the stopped run running.
#   ada   the reference: graded first, finished when the batch is stopped
#   zed   slow_saxpy.cu, two seconds a check: being graded when it is stopped
# -DPPLAB -DROOT -DWORK
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(class ${WORK}/resume-class)
set(out ${WORK}/resume-out)
file(REMOVE_RECURSE ${class} ${out})
file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${class}/ada/01_saxpy)
file(COPY ${CMAKE_CURRENT_LIST_DIR}/slow_saxpy.cu DESTINATION ${class}/zed/01_saxpy)
file(RENAME ${class}/zed/01_saxpy/slow_saxpy.cu ${class}/zed/01_saxpy/saxpy.cu)

# One student at a time (--jobs 1), in name order; stopped once ada is written as finished.
set(grade grade --submissions "${class}" --out "${out}" --labs 01 --jobs 1)
list(JOIN grade "\" \"" words)
set(words "${PPLAB}\" \"${words}")
execute_process(
  COMMAND sh -c "\"${words}\" 2> \"${WORK}/resume-first.log\" & pid=$!
                 while ! grep -q '\"finished\": true' \"${out}/batch.json\" 2>/dev/null; do
                   kill -0 $pid 2>/dev/null || { echo 'the batch ended before it could be stopped'; exit 3; }
                   sleep 0.1
                 done
                 kill -TERM $pid; wait $pid; echo \"stopped: $?\""
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
expect("the batch was stopped while zed was graded (${output})" result EQUAL 0 AND output MATCHES "stopped: 143")

# What the stopped batch left.
expect_report_files(${out}/ada)
foreach(file gradebook.csv summary.md batch.json)
  expect("the stopped batch left ${file}" EXISTS ${out}/${file})
endforeach()
read_gradebook(${out}/gradebook.csv)
expect("ada's row has her points (${total_ada} of ${max_ada})" total_ada EQUAL 10 AND max_ada EQUAL 10)
expect("zed's row says he was not graded (${notes_zed})" notes_zed MATCHES "not graded yet" AND max_zed EQUAL 10)
file(READ ${out}/summary.md summary)
expect("the summary says how far the batch got" summary MATCHES "1 of 2 students graded so far")
file(READ ${out}/batch.json record)
string(JSON first_seed GET "${record}" seed)
string(JSON zed_finished GET "${record}" students 1 finished)
expect("batch.json marks zed unfinished" NOT zed_finished)
# Nothing of the stopped run goes on: no check, runner or build of zed's.
# (The pattern's [k] keeps this shell's own command line from matching it.)
execute_process(COMMAND sh -c "sleep 1; pgrep -af '${out}/wor[k]/zed' || true" OUTPUT_VARIABLE left OUTPUT_STRIP_TRAILING_WHITESPACE)
expect("no process of the stopped batch is left (${left})" NOT left)
file(READ ${out}/ada/report.md ada_report)

# The same command again: only zed is graded, with the same hidden seed.
run_pplab(result output ${grade})
message("${output}")
expect("the rerun exits 0 (got ${result})" result EQUAL 0)
expect("the rerun keeps ada's results" output MATCHES "1 of 2 students already have results")
file(READ ${out}/ada/report.md ada_again)
expect("ada's report is not written again" ada_again STREQUAL ada_report)
read_gradebook(${out}/gradebook.csv)
expect("ada keeps her points" total_ada EQUAL 10)
expect("zed is graded now (${notes_zed})" DEFINED total_zed AND NOT notes_zed MATCHES "not graded yet")
expect_report_files(${out}/zed)
file(READ ${out}/batch.json record)
string(JSON second_seed GET "${record}" seed)
expect("the rerun grades with the first run's hidden seed (${first_seed}, then ${second_seed})" first_seed STREQUAL second_seed)
file(READ ${out}/zed/report.md zed_report)
expect("zed's report names that seed" zed_report MATCHES "seed: ${first_seed}")
message("ok: ${CMAKE_CURRENT_LIST_FILE}")
