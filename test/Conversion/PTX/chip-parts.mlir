// RUN: mirage-opt %s --mirage-to-ptx="chip=a100-40gb" | FileCheck %s --check-prefix=A100
// RUN: mirage-opt %s --mirage-to-ptx="chip=a10g" | FileCheck %s --check-prefix=SM86
// RUN: mirage-opt %s --mirage-to-ptx="chip=a40" | FileCheck %s --check-prefix=SM86
// RUN: mirage-opt %s --mirage-to-ptx="chip=l4" | FileCheck %s --check-prefix=SM89
// RUN: mirage-opt %s --mirage-to-ptx="chip=l40s" | FileCheck %s --check-prefix=SM89
// RUN: mirage-opt %s --mirage-to-ptx="chip=rtx4090" | FileCheck %s --check-prefix=SM89
// RUN: mirage-opt %s --mirage-to-ptx="chip=h200" | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --mirage-to-ptx="chip=b200" | FileCheck %s --check-prefix=SM100
// RUN: mirage-opt %s --mirage-to-ptx="chip=rtx5090" | FileCheck %s --check-prefix=SM120
// RUN: mirage-opt %s --mirage-to-ptx | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_90 features=+ptx83" | FileCheck %s --check-prefix=FEATURES
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_86 features=+ptx71" | FileCheck %s --check-prefix=SM86

// A part of the cost model's table selects its architecture and that
// architecture's PTX version; no chip is sm_90. An explicit `features=` is
// passed on as it is.

// A100: #nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">
// A100-SAME: .version 7.0
// A100-SAME: .target sm_80
// SM86: #nvvm.target<O = 3, chip = "sm_86", features = "+ptx71">
// SM86-SAME: .version 7.1
// SM86-SAME: .target sm_86
// SM89: #nvvm.target<O = 3, chip = "sm_89", features = "+ptx78">
// SM89-SAME: .version 7.8
// SM89-SAME: .target sm_89
// SM90: #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// SM90-SAME: .version 8.0
// SM90-SAME: .target sm_90
// SM100: #nvvm.target<O = 3, chip = "sm_100", features = "+ptx86">
// SM100-SAME: .version 8.6
// SM100-SAME: .target sm_100
// SM120: #nvvm.target<O = 3, chip = "sm_120", features = "+ptx87">
// SM120-SAME: .version 8.7
// SM120-SAME: .target sm_120
// FEATURES: #nvvm.target<O = 3, chip = "sm_90", features = "+ptx83">
// FEATURES-SAME: .version 8.3
// FEATURES-SAME: .target sm_90
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
