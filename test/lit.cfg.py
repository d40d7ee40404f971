# Lit configuration for the Mirage regression tests.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "Mirage"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mirage_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [os.path.join(config.mirage_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["mirage-opt", "mirage-run", "mlir-opt", "mlir-runner",
                                    "mirage-capi-pipeline-test"],
                                   tool_dirs)
config.substitutions.append(("%mirage_src_root", config.mirage_src_root))
config.substitutions.append(
    ("%mlir_lib_dir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

# The CUDA toolkit is optional: tests that assemble PTX require `ptxas`.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    # gpu-module-to-binary links libdevice (the __nv_* math functions of the
    # kernels) from the toolkit named by CUDA_HOME.
    config.environment["CUDA_HOME"] = os.environ.get(
        "CUDA_HOME", os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
    # One feature per architecture this ptxas assembles (`ptxas-sm_100`), from
    # the values its --help lists for --gpu-name: CUDA 13 dropped sm_70, an
    # older toolkit does not know sm_100 or sm_120.
    import re
    import subprocess
    try:
        help_text = subprocess.run([ptxas, "--help"], capture_output=True, text=True,
                                   timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        help_text = ""
    for arch in sorted(set(re.findall(r"'(sm_[0-9]+[af]?)'", help_text))):
        config.available_features.add("ptxas-" + arch)

for omp in ["/usr/lib/llvm-22/lib/libomp.so", "/usr/lib/x86_64-linux-gnu/libomp.so.5"]:
    if os.path.exists(omp):
        config.available_features.add("libomp")
        config.substitutions.append(("%libomp", omp))
        break

# The Mirage CUDA runtime (runtime/) is built only where CMake found the CUDA
# toolkit.
cuda_runtime = os.path.join(config.mirage_obj_root, "lib", "libMirageCudaRuntime.so")
if os.path.exists(cuda_runtime):
    config.available_features.add("cuda-runtime")
    config.substitutions.append(("%cuda_runtime", cuda_runtime))
if os.path.exists("/dev/nvidia0"):
    config.available_features.add("cuda-gpu")

# The superoptimizer keeps results in a cache under $XDG_CACHE_HOME/mirage by
# default. Tests run without it (MIRAGE_CACHE_DIR=none), so that a test
# neither reads nor fills the user's cache nor sees what another test left;
# the cache's own tests name a directory with cache-dir.
config.environment["MIRAGE_CACHE_DIR"] = "none"

# mirage-opt-mpi is built where CMake found MPI (tools/mirage-opt); its tests
# run several ranks on this machine with OpenMPI's mpirun, which refuses to
# run as root unless told it may, and whose shared-memory transport cannot
# use cross-memory attach in most containers.
mpi_driver = os.path.join(config.mirage_obj_root, "bin", "mirage-opt-mpi")
mpirun = shutil.which("mpirun")
if os.path.exists(mpi_driver) and mpirun:
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", mpirun + " --oversubscribe"))
    config.substitutions.append(("%mirage_opt_mpi", mpi_driver))
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    config.environment["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
