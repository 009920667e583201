/* What tools/jextract.sh parses for io.ingot.cuda.Cublas. cublas_v2.h defines CUBLASAPI (cublas_api.h refuses to
   compile without it) and maps the unsuffixed names to the _v2 symbols that the bindings use. */
#include <cublas_v2.h>
