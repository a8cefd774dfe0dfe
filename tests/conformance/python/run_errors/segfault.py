# expect: 5:1 PYTHON_CRASH crashed (Segmentation fault)
import ctypes

dp_table = "t"
ctypes.string_at(0)
