# Project-wide compiler flags, applied through this interface target so that
# third-party headers (included as SYSTEM) never trip -Werror.
add_library(wmnsim_flags INTERFACE)
target_compile_options(wmnsim_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
# The layer libraries are compiled as position-independent code (the Python module
# links them), and under -fPIC the compiler must assume any function with external
# linkage may be replaced at load time, so it inlines none of them, not even a
# small helper into its neighbour in the same file (Radio::account_chunk into
# Radio::signal_end). Nothing in wmnsim interposes its own functions: let the
# compiler inline as it would in an executable (-fPIE, the executables' and
# tests' own code, already does). It changes no arithmetic (issue 43 §4,
# docs/performance.md).
target_compile_options(wmnsim_flags INTERFACE
                       $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,STATIC_LIBRARY>:-fno-semantic-interposition>)
if(WMNSIM_WERROR)
  target_compile_options(wmnsim_flags INTERFACE -Werror)
endif()
# GCC 12's libstdc++ string code, inlined at -O3 and across files by link-time
# optimisation, gives false -Wrestrict and -Wstringop-overflow warnings (here on
# `"literal" + std::string`; GCC PR 105329, and PR 109299, fixed in GCC 13's
# libstdc++): the README's flagship command (scripts/build.sh release) printed six.
# Off in the Release configuration (also `pip install .`'s), which has no -Werror;
# the ci build (RelWithDebInfo, -O2, -Werror) keeps both.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  set(gcc12_false_positives $<$<CONFIG:Release>:-Wno-restrict$<SEMICOLON>-Wno-stringop-overflow>)
  target_compile_options(wmnsim_flags INTERFACE ${gcc12_false_positives})
  target_link_options(wmnsim_flags INTERFACE ${gcc12_false_positives})
endif()
if(WMNSIM_SANITIZE)
  target_compile_options(wmnsim_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(wmnsim_flags INTERFACE -fsanitize=address,undefined)
endif()

# wmnsim_add_layer(NAME SOURCES... LINKS ...): one library per layer folder.
function(wmnsim_add_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINKS" ${ARGN})
  add_library(${name} ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_LINKS} PRIVATE wmnsim_flags)
endfunction()
