// A local header named like a system one: only a quoted include may find it.
#pragma once
#define LOCAL_UNISTD_WAS_READ 1
