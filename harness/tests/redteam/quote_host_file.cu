// Red team: have the compiler quote files the grader can read into its error messages,
// which the report shows the student.
#include "/etc/passwd"
#include "@ROOT@/.git/config"
#include "@ROOT@/harness/labs/01_saxpy/wrong/missing_guard/saxpy.cu"
