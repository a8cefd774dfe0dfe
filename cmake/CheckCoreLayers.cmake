# The core's layer check, run at build time (cmake -P) before any core module compiles:
#
#   cmake -DROOT=<source dir> -DMODULES=common,storage,... -DUSES_<module>=<modules it may use, comma-
#         separated> ... -DSTAMP=<file written on success> -P CheckCoreLayers.cmake
#
# Every `#include "core/<other>/..."` in core/<module>/*.h and *.cpp must name the module itself or one
# that USES_<module> lists (core/CMakeLists.txt holds the table, which also decides what each module's
# target links). Separate static libraries alone would not stop an upward call: the programs link every
# module, so the linker finds the symbol anyway. Each offending include is reported as
# `file:line: error: ...`, and the build fails.

cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" MODULES "${MODULES}")
set(violations 0)
foreach(module IN LISTS MODULES)
  string(REPLACE "," ";" USES_${module} "${USES_${module}}")
  set(allowed ${module} ${USES_${module}})
  file(GLOB files "${ROOT}/core/${module}/*.h" "${ROOT}/core/${module}/*.cpp")
  list(SORT files)
  foreach(file IN LISTS files)
    file(READ "${file}" text)
    # A leading newline lets an include on the first line match like the others.
    set(rest "\n${text}")
    set(line 0)
    while(TRUE)
      string(REGEX MATCH "\n[ \t]*#[ \t]*include[ \t]*\"core/([A-Za-z0-9_]+)/[^\"\n]*\"" found "${rest}")
      if(NOT found)
        break()
      endif()
      set(used "${CMAKE_MATCH_1}")
      string(FIND "${rest}" "${found}" at)
      # Line number: the newlines before the match, plus the one the match starts with.
      string(SUBSTRING "${rest}" 0 ${at} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines count)
      math(EXPR line "${line} + ${count} + 1")
      string(LENGTH "${found}" length)
      math(EXPR next "${at} + ${length}")
      string(SUBSTRING "${rest}" ${next} -1 rest)
      if(NOT used IN_LIST allowed)
        file(RELATIVE_PATH shown "${ROOT}" "${file}")
        string(STRIP "${found}" directive)
        string(JOIN ", " may ${USES_${module}})
        if(may STREQUAL "")
          set(may "nothing else")
        endif()
        message("${shown}:${line}: error: core/${module} may not include core/${used} (${directive}); "
                "it may use ${may} (the layer table in core/CMakeLists.txt)")
        math(EXPR violations "${violations} + 1")
      endif()
    endwhile()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "core layer check: ${violations} include(s) against the layers")
endif()
file(WRITE "${STAMP}" "core layers checked\n")
