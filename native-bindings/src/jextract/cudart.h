/* What tools/jextract.sh parses for io.ingot.cuda.CudaRuntime: the runtime API and the data types (library_types.h,
   which cuda_runtime_api.h does not include). */
#include <cuda_runtime_api.h>
#include <library_types.h>
