# Decides whether the CUDA backend is built (PL_HAVE_CUDA), from PL_WITH_CUDA.
set(PL_HAVE_CUDA OFF)
if(NOT PL_WITH_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # nvcc drives the host compiler; g++ is the one every CUDA release supports.
    if(NOT CMAKE_CUDA_HOST_COMPILER)
      find_program(PL_GXX g++)
      if(PL_GXX)
        set(CMAKE_CUDA_HOST_COMPILER ${PL_GXX})
      endif()
    endif()
    # Without a GPU, CMake's "native" cannot work and the compiler default
    # (sm_75) would not run well on the GPUs people use; build Ampere and
    # Hopper code plus Hopper PTX (JIT-compiled on newer GPUs) unless the
    # user chose architectures.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES "80-real;90" CACHE STRING "CUDA architectures to build for")
    endif()
    enable_language(CUDA)
    # The runtime's headers need C++20 (cxx_std_20 applies to CUDA sources
    # too). nvcc takes -std=c++20 since CUDA 12; CMake before 3.26 does not
    # know that and would refuse to generate.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION AND
       CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    endif()
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND)
      set(PL_HAVE_CUDA ON)
    endif()
  endif()
  if(PL_WITH_CUDA STREQUAL "ON" AND NOT PL_HAVE_CUDA)
    message(FATAL_ERROR "PL_WITH_CUDA=ON but no CUDA toolkit was found")
  endif()
endif()
message(STATUS "placelint: CUDA backend ${PL_HAVE_CUDA}")
