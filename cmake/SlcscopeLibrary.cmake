# slcscope_library(<target>)
#
# Call it after add_library() of every slcscope library:
#
#   add_library(slcscope_foo a.c b.c)
#   slcscope_library(slcscope_foo)
#
# A shared library (BUILD_SHARED_LIBS=ON, or add_library(... SHARED)) is then
# linked with the version script cmake/slcscope.map, which exports the API
# (slc_ names) and makes every other symbol local, and with --no-undefined,
# so that a library calling another one's internal slc__ name fails to link
# instead of at run time.  The target also joins slcscope_libraries, which
# builds every library and nothing else; the export check
# (scripts/check_exports.sh, ctest check_exports) builds that target.
# At the end of the configure step every library target named slcscope_* is
# checked to have been passed here.
set(SLCSCOPE_EXPORT_MAP ${CMAKE_CURRENT_LIST_DIR}/slcscope.map)
set(SLCSCOPE_ROOT_DIR ${CMAKE_CURRENT_SOURCE_DIR})   # where this file is included: the project's top
add_custom_target(slcscope_libraries)

function(slcscope_library target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "SHARED_LIBRARY")
    target_link_options(${target} PRIVATE "LINKER:--version-script=${SLCSCOPE_EXPORT_MAP}")
    # The sanitizers' runtime is resolved only in the program.
    if(NOT SLCSCOPE_SANITIZE)
      target_link_options(${target} PRIVATE "LINKER:--no-undefined")
    endif()
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${SLCSCOPE_EXPORT_MAP})
  endif()
  set_property(TARGET ${target} PROPERTY SLCSCOPE_LIBRARY ON)
  add_dependencies(slcscope_libraries ${target})
endfunction()

# A library that skipped slcscope_library() would export all its globals
# and escape the export check.
function(slcscope_check_libraries)
  set(dirs ${SLCSCOPE_ROOT_DIR})
  set(missing "")
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      if(t MATCHES "^slcscope_" AND type MATCHES "^(STATIC|SHARED|MODULE|OBJECT)_LIBRARY$")
        get_target_property(registered ${t} SLCSCOPE_LIBRARY)
        if(NOT registered)
          list(APPEND missing ${t})
        endif()
      endif()
    endforeach()
  endwhile()
  if(missing)
    message(FATAL_ERROR "call slcscope_library(<target>) (cmake/SlcscopeLibrary.cmake) after add_library() of: ${missing}")
  endif()
endfunction()
cmake_language(DEFER CALL slcscope_check_libraries)
