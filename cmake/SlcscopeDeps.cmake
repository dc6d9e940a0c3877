# Find every dependency through pkg-config; a missing one stops the configure
# step with the name of the Debian package that provides it.
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: install the Debian package 'pkg-config' (or run ./scripts/setup.sh)")
endif()

# slcscope_require(<target-suffix> <pkg-config module> <Debian package>)
# creates the imported target PkgConfig::<target-suffix>.
function(slcscope_require name module debpkg)
  pkg_check_modules(${name} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "${module} not found: install the Debian package '${debpkg}' (or run ./scripts/setup.sh)")
  endif()
  message(STATUS "Found ${module} ${${name}_VERSION}")
endfunction()

slcscope_require(HDF5 hdf5 libhdf5-dev)
slcscope_require(ZLIB zlib zlib1g-dev)
slcscope_require(NVME libnvme libnvme-dev)
slcscope_require(ATASMART libatasmart libatasmart-dev)
slcscope_require(URING "liburing>=2.3" liburing-dev)   # io_uring_get_events: the shallow-queue poll
slcscope_require(CAIRO cairo libcairo2-dev)
slcscope_require(JANSSON jansson libjansson-dev)
slcscope_require(BLKID blkid libblkid-dev)
slcscope_require(FUSE3 fuse3 libfuse3-dev)   # slcscope emulate: the simulated drive as a file
slcscope_require(SQLITE sqlite3 libsqlite3-dev)   # slcscope lab: the lab's database in a file
slcscope_require(PQ libpq libpq-dev)              # slcscope lab --db postgresql://: a shared lab
slcscope_require(CRYPTO libcrypto libssl-dev)     # slcscope lab: SHA-256 of each trace stored
if(SLCSCOPE_TESTS)
  slcscope_require(CMOCKA cmocka libcmocka-dev)
endif()
find_library(MATH_LIBRARY m REQUIRED)
# the engine's writer threads, one per job of a step (core/engine_jobs.c)
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
