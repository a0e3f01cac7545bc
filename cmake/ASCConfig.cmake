# find_package(ASC): the Ascend C language (ASC) of the vendor's CMake flow, built for the
# ascendc-sim simulator. ASC sources (.asc) are compiled and linked by `ascendc cxx`, the
# project's compiler wrapper: it rewrites `<<<>>>` launches, adds the headers, the product's
# macros and the simulator library, and links a record of the product the program simulates.
#
#   cmake -DCMAKE_PREFIX_PATH=<ascendc-sim checkout>/cmake ..   # or: $(ascendc flags --cmake)
#
# Inputs (cache or normal variables, set before find_package or with -D):
#   CMAKE_ASC_ARCHITECTURES  NPU architecture, e.g. dav-2201 (Atlas A2/A3), dav-2002 (Atlas
#                            inference 310P), dav-3002 (310B), dav-1001 (training 910)
#   ASCENDC_PRODUCT          a product or SoC (Ascend910B3, Ascend310P1, A3, ...); also read from
#                            the environment; else SOC_VERSION; else the architecture's series
#   CMAKE_ASC_RUN_MODE       npu (default), sim (both: the acl host branch) or cpu (the
#                            ASCENDC_CPU_DEBUG branch); every mode runs on the simulator
#   ASCENDC_EXECUTABLE       the `ascendc` command (default: this checkout's target/release,
#                            else PATH; or $ASCENDC)
# Results: ASC_FOUND, ASCENDC_EXECUTABLE, ASCENDC_SIM_PRODUCT, ASCENDC_SIM_RUN_MODE,
# ASC_INCLUDE_DIRS, the ASC language for project(), INTERFACE targets standing for the vendor
# libraries the examples link (their functions are in the simulator library), and
# ascendc_library / ascendc_compile_definitions / ascendc_compile_options /
# ascendc_include_directories for the kernel-library form of the flow.

list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(_asc_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

if(NOT ASCENDC_EXECUTABLE AND DEFINED ENV{ASCENDC})
  set(ASCENDC_EXECUTABLE "$ENV{ASCENDC}" CACHE FILEPATH "The ascendc command")
endif()
find_program(ASCENDC_EXECUTABLE ascendc PATHS "${_asc_root}/target/release" NO_DEFAULT_PATH)
find_program(ASCENDC_EXECUTABLE ascendc)
if(NOT ASCENDC_EXECUTABLE)
  message(FATAL_ERROR "find_package(ASC): the ascendc command was not found in ${_asc_root}/target/release "
                      "nor on PATH: run `cargo build --release -p ascendc-cli` in ${_asc_root}, or set ASCENDC_EXECUTABLE")
endif()

if(NOT DEFINED CMAKE_ASC_ARCHITECTURES)
  set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture: dav-2201, dav-2002, dav-3002, dav-1001")
endif()
if(NOT DEFINED CMAKE_ASC_RUN_MODE)
  set(CMAKE_ASC_RUN_MODE "npu" CACHE STRING "Run mode: npu, sim (the acl host branch) or cpu (ASCENDC_CPU_DEBUG)")
endif()

# The product: ASCENDC_PRODUCT, else SOC_VERSION, else the (first) architecture.
if(ASCENDC_PRODUCT)
  set(_asc_product "${ASCENDC_PRODUCT}")
elseif(DEFINED ENV{ASCENDC_PRODUCT} AND NOT "$ENV{ASCENDC_PRODUCT}" STREQUAL "")
  set(_asc_product "$ENV{ASCENDC_PRODUCT}")
elseif(SOC_VERSION)
  set(_asc_product "${SOC_VERSION}")
else()
  list(GET CMAKE_ASC_ARCHITECTURES 0 _asc_product)
endif()

if(CMAKE_ASC_RUN_MODE STREQUAL "cpu")
  set(ASCENDC_SIM_RUN_MODE cpu)
elseif(CMAKE_ASC_RUN_MODE STREQUAL "npu" OR CMAKE_ASC_RUN_MODE STREQUAL "sim")
  set(ASCENDC_SIM_RUN_MODE npu)
else()
  message(FATAL_ERROR "CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE}: expected npu, sim or cpu")
endif()

# `ascendc flags` checks the product (an unknown name, or an architecture the simulator does not
# model, fails here with the list of accepted names) and names its include directory.
execute_process(
  COMMAND "${ASCENDC_EXECUTABLE}" flags --cflags --product "${_asc_product}" --run-mode "${ASCENDC_SIM_RUN_MODE}"
  OUTPUT_VARIABLE _asc_cflags ERROR_VARIABLE _asc_error RESULT_VARIABLE _asc_rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _asc_rc EQUAL 0)
  string(STRIP "${_asc_error}" _asc_error)
  string(REGEX REPLACE "^error: " "" _asc_error "${_asc_error}")
  message(FATAL_ERROR "find_package(ASC): product ${_asc_product}: ${_asc_error}")
endif()
set(ASCENDC_SIM_PRODUCT "${_asc_product}")
set(ASC_INCLUDE_DIRS "")
separate_arguments(_asc_cflags UNIX_COMMAND "${_asc_cflags}")
foreach(_asc_flag IN LISTS _asc_cflags)
  if(_asc_flag MATCHES "^-I(.+)$")
    list(APPEND ASC_INCLUDE_DIRS "${CMAKE_MATCH_1}")
  endif()
endforeach()

# Host sources compiled as CXX (a main.cpp calling a kernel library) find acl/acl.h and the host
# headers here too.
include_directories(${ASC_INCLUDE_DIRS})

# The vendor libraries the examples link: their functions are in the simulator library, which
# `ascendc cxx` links, so they stand for nothing.
foreach(_asc_lib tiling_api register platform graph_base unified_dlog ascendcl acl_rt nnopbase
                 runtime ascendalog c_sec)
  if(NOT TARGET ${_asc_lib})
    add_library(${_asc_lib} INTERFACE IMPORTED GLOBAL)
  endif()
endforeach()

# The kernel-library form: ascendc_library(NAME STATIC|SHARED|OBJECT sources...) compiles the
# sources as ASC; the other functions forward to their target_* counterparts.
function(ascendc_library name type)
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${name} ${type} ${ARGN})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE ASC)
endfunction()
function(ascendc_compile_definitions target)
  target_compile_definitions(${target} ${ARGN})
endfunction()
function(ascendc_compile_options target)
  target_compile_options(${target} ${ARGN})
endfunction()
function(ascendc_include_directories target)
  target_include_directories(${target} ${ARGN})
endfunction()

set(ASC_FOUND TRUE)
message(STATUS "ASC: ${ASCENDC_EXECUTABLE} cxx, product ${ASCENDC_SIM_PRODUCT}, ${ASCENDC_SIM_RUN_MODE} host branch (ascendc-sim)")
