#pragma once
inline int local_value() { return 41; }
