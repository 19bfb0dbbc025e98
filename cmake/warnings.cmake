# Project-wide compiler flags, applied through this interface target so that
# third-party headers (included as SYSTEM) never trip -Werror.
add_library(wmnsim_flags INTERFACE)
target_compile_options(wmnsim_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
if(WMNSIM_WERROR)
  target_compile_options(wmnsim_flags INTERFACE -Werror)
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
