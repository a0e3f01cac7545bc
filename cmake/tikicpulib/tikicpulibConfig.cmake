# find_package(tikicpulib): the CPU-debug kernel library the vendor's kernel unit tests link
# (gtest + tikicpulib.h + ICPU_RUN_KF), built for the ascendc-sim simulator. Found with the same
# prefix as find_package(ASC):
#
#   cmake -DCMAKE_PREFIX_PATH=$(ascendc flags --cmake) ..
#
# Targets: tikicpulib::<product> INTERFACE IMPORTED, one per SoC and series the simulator
# models (tikicpulib::Ascend910B1, tikicpulib::Ascend910B, tikicpulib::Ascend310P3, ...). Each
# adds the project's include directory, the CPU-debug defines (ASCENDC_CPU_DEBUG,
# __CCE_KT_TEST__), the product's __NPU_ARCH__ / __CCE_AICORE__ / __DAV_* macros, C++17, a
# source recording the product (the program simulates it unless $ASCENDC_PRODUCT says
# otherwise), and links the simulator library whole with its system libraries.
#
# Compiler launcher: unless TIKICPULIB_NO_LAUNCHER is set (or CMAKE_CXX_COMPILER_LAUNCHER already
# is), C++ sources of targets created after find_package are compiled through `ascendc cxx` as
# CMAKE_CXX_COMPILER_LAUNCHER. It turns `extern "C"` kernels into C++ linkage (a kernel named
# sqrt, exp or acos would clash with <cmath> otherwise), records `__mix__` / `__cube__` kernel
# modes and rewrites any `<<<>>>` launch; ICPU_RUN_KF launches themselves need no rewriting.
#
# Needs CMake 3.24 (the WHOLE_ARCHIVE link feature).
#
# Inputs: ASCENDC_EXECUTABLE (the `ascendc` command; default: this checkout's target/release,
# else PATH, or $ASCENDC), TIKICPULIB_NO_LAUNCHER.
# Results: tikicpulib_FOUND, TIKICPULIB_PRODUCTS (the target names after `tikicpulib::`),
# TIKICPULIB_INCLUDE_DIR, TIKICPULIB_LIBRARY (the simulator library).

if(CMAKE_VERSION VERSION_LESS 3.24)
  set(tikicpulib_FOUND FALSE)
  set(tikicpulib_NOT_FOUND_MESSAGE "needs CMake 3.24 or newer (the WHOLE_ARCHIVE link feature)")
  return()
endif()
get_filename_component(_tk_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

if(NOT ASCENDC_EXECUTABLE AND DEFINED ENV{ASCENDC})
  set(ASCENDC_EXECUTABLE "$ENV{ASCENDC}" CACHE FILEPATH "The ascendc command")
endif()
find_program(ASCENDC_EXECUTABLE ascendc PATHS "${_tk_root}/target/release" NO_DEFAULT_PATH)
find_program(ASCENDC_EXECUTABLE ascendc)
if(NOT ASCENDC_EXECUTABLE)
  set(tikicpulib_FOUND FALSE)
  set(tikicpulib_NOT_FOUND_MESSAGE "the ascendc command was not found in ${_tk_root}/target/release nor on PATH: "
                                   "run `cargo build --release -p ascendc-cli` in ${_tk_root}, or set ASCENDC_EXECUTABLE")
  return()
endif()

# Every SoC and series the simulator models (crates/ascendc/src/chip/soc.rs; a test checks the
# list against it).
set(TIKICPULIB_PRODUCTS
    Ascend910 Ascend910A Ascend910ProA Ascend910ProB Ascend910PremiumA
    Ascend310P Ascend310P1 Ascend310P3
    Ascend910B Ascend910B1 Ascend910B2 Ascend910B2C Ascend910B3 Ascend910B4 Ascend910B4-1
    Ascend910_93 Ascend910_9391 Ascend910_9381 Ascend910_9372 Ascend910_9392 Ascend910_9382 Ascend910_9362
    Ascend310B Ascend310B1 Ascend310B2 Ascend310B3 Ascend310B4)

execute_process(
  COMMAND "${ASCENDC_EXECUTABLE}" flags --libs
  OUTPUT_VARIABLE _tk_libs ERROR_VARIABLE _tk_error RESULT_VARIABLE _tk_rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _tk_rc EQUAL 0)
  set(tikicpulib_FOUND FALSE)
  set(tikicpulib_NOT_FOUND_MESSAGE "`${ASCENDC_EXECUTABLE} flags --libs` failed: ${_tk_error}")
  return()
endif()
separate_arguments(_tk_libs UNIX_COMMAND "${_tk_libs}")
# `-rdynamic -Wl,--whole-archive <lib> -Wl,--no-whole-archive <system libs>`: the archive linked
# whole (WHOLE_ARCHIVE, so that CMake keeps it in one piece), the rest as they are.
set(_tk_link "")
set(_tk_link_options "")
foreach(_tk_flag IN LISTS _tk_libs)
  if(_tk_flag MATCHES "^-Wl,--(no-)?whole-archive$")
    continue()
  elseif(_tk_flag STREQUAL "-rdynamic")
    list(APPEND _tk_link_options "${_tk_flag}")
  elseif(_tk_flag MATCHES "\\.a$")
    set(TIKICPULIB_LIBRARY "${_tk_flag}")
    list(APPEND _tk_link "$<LINK_LIBRARY:WHOLE_ARCHIVE,${_tk_flag}>")
  else()
    list(APPEND _tk_link "${_tk_flag}")
  endif()
endforeach()

set(_tk_gen "${CMAKE_BINARY_DIR}/tikicpulib")
foreach(_tk_product IN LISTS TIKICPULIB_PRODUCTS)
  if(TARGET tikicpulib::${_tk_product})
    continue()
  endif()
  execute_process(
    COMMAND "${ASCENDC_EXECUTABLE}" flags --cflags --run-mode cpu --product "${_tk_product}"
    OUTPUT_VARIABLE _tk_cflags ERROR_VARIABLE _tk_error RESULT_VARIABLE _tk_rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _tk_rc EQUAL 0)
    message(WARNING "tikicpulib::${_tk_product} not defined: ${_tk_error}")
    continue()
  endif()
  separate_arguments(_tk_cflags UNIX_COMMAND "${_tk_cflags}")
  set(_tk_defs "")
  set(_tk_incs "")
  foreach(_tk_flag IN LISTS _tk_cflags)
    if(_tk_flag MATCHES "^-D(.+)$")
      list(APPEND _tk_defs "${CMAKE_MATCH_1}")
    elseif(_tk_flag MATCHES "^-I(.+)$")
      list(APPEND _tk_incs "${CMAKE_MATCH_1}")
      set(TIKICPULIB_INCLUDE_DIR "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  # The record of the product the program was built for (what `ascendc cxx` links).
  set(_tk_src "${_tk_gen}/build_product_${_tk_product}.cpp")
  string(CONCAT _tk_text "// tikicpulib::${_tk_product}: the product this program simulates.\n"
                        "extern \"C\" void ascendc_set_build_product(const char* soc);\n"
                        "namespace {\n"
                        "[[maybe_unused]] const bool kTikicpulibProduct = (ascendc_set_build_product(\"${_tk_product}\"), true);\n"
                        "}  // namespace\n")
  if(EXISTS "${_tk_src}")
    file(READ "${_tk_src}" _tk_old)
  else()
    set(_tk_old "")
  endif()
  if(NOT _tk_old STREQUAL _tk_text)
    file(WRITE "${_tk_src}" "${_tk_text}")
  endif()
  add_library(tikicpulib::${_tk_product} INTERFACE IMPORTED GLOBAL)
  set_target_properties(tikicpulib::${_tk_product} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_tk_incs}"
    INTERFACE_COMPILE_DEFINITIONS "${_tk_defs}"
    INTERFACE_COMPILE_FEATURES cxx_std_17
    INTERFACE_LINK_LIBRARIES "${_tk_link}"
    INTERFACE_LINK_OPTIONS "${_tk_link_options}"
    INTERFACE_SOURCES "$<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:${_tk_src}>")
endforeach()

if(NOT TIKICPULIB_NO_LAUNCHER AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${ASCENDC_EXECUTABLE};cxx")
endif()

set(tikicpulib_FOUND TRUE)
if(NOT tikicpulib_FIND_QUIETLY)
  message(STATUS "tikicpulib: ascendc-sim ${ASCENDC_EXECUTABLE}, targets tikicpulib::<SoC> for ${TIKICPULIB_PRODUCTS}")
endif()
