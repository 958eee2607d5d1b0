// Red team: an include that never ends, so that the compiler takes all the host's memory.
#include "/dev/zero"
